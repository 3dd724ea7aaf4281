import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { prepared } from './prepared.ts'

describe('prepared queries', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  const byName = prepared((db, name: string) =>
    db.selectFrom('accounts').select(['id', 'name']).where('name', '=', name),
  )

  it("runs the compiled query with each call's own arguments, in and out of transactions", async () => {
    const a = await t.account('alpha')
    const b = await t.account('beta')
    assert.deepEqual(
      (await byName(t.deps.db, 'alpha')).map((r) => r.id),
      [a.accountId],
    )
    assert.deepEqual(
      (await byName(t.deps.db, 'beta')).map((r) => r.id),
      [b.accountId],
    )
    const inTx = await t.deps.db.transaction().execute((tx) => byName(tx, 'alpha'))
    assert.deepEqual(
      inTx.map((r) => r.id),
      [a.accountId],
    )
    assert.deepEqual(await byName(t.deps.db, 'nobody'), [])
  })

  it('never reads rows another request has not committed yet', async () => {
    const name = `pending-${Date.now()}`
    let inTransaction = true
    let read: Promise<unknown[]> | undefined
    await t.deps.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('accounts')
        .values({ id: `acct_${'P'.repeat(24)}`, name, created_at: new Date().toISOString() })
        .execute()
      // Another request's read while this transaction is open: not awaited here, since on SQLite
      // it waits for the one connection (awaiting it would deadlock this transaction).
      read = byName(t.deps.db, name).then((rows) => {
        assert.ok(!inTransaction || rows.length === 0, 'read an uncommitted row')
        return rows
      })
      await new Promise((resolve) => setImmediate(resolve))
      inTransaction = false
    })
    await read
    assert.equal((await byName(t.deps.db, name)).length, 1)
  })

  it('refuses a builder that does not use every argument as a parameter', async () => {
    const broken = prepared((db, _unused: string) => db.selectFrom('accounts').select('id'))
    await assert.rejects(broken(t.deps.db, 'x'), /every argument must appear exactly once/)
  })
})
