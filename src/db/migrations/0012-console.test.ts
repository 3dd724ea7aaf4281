import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Kysely } from 'kysely'
import { startTestApp, type TestApp } from '../../../test/harness.ts'
import * as consoleMigration from './0012-console.ts'

describe('migration 0012-console', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it("backfills every account's owner address as its admin, lower-cased; accounts without one get none", async () => {
    const db = t.deps.db as unknown as Kysely<unknown>
    await consoleMigration.down(db)
    await t.deps.db
      .insertInto('accounts')
      .values([
        {
          id: 'acct_000000000000000000000001',
          name: 'Owned',
          owner_email: ' Owner@Example.EU',
          created_at: '2026-01-02T03:04:05.000Z',
        },
        {
          id: 'acct_000000000000000000000002',
          name: 'Ownerless',
          owner_email: null,
          created_at: '2026-01-02T03:04:05.000Z',
        },
      ])
      .execute()
    await consoleMigration.up(db)
    const members = await t.deps.db.selectFrom('members').selectAll().execute()
    assert.equal(members.length, 1)
    const [owner] = members
    assert.match(owner!.id, /^mem_[0-9A-Za-z]{24}$/)
    assert.deepEqual(
      { ...owner, id: undefined },
      {
        id: undefined,
        account_id: 'acct_000000000000000000000001',
        email: 'owner@example.eu',
        role: 'admin',
        created_at: '2026-01-02T03:04:05.000Z',
        last_sign_in_at: null,
        removed_at: null,
      },
    )
  })
})
