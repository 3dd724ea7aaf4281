import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql } from 'kysely'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { randomBase62 } from '../lib/ids.ts'
import { MAX_BATCH_ROWS, openApiPath, type RequestRecord } from './request-log-writer.ts'

describe('request log writer', () => {
  let t: TestApp
  let accountId: string

  const record = (overrides: Partial<RequestRecord> = {}): RequestRecord => ({
    id: `req_${randomBase62(24)}`,
    scope: { accountId, environment: 'test', keyId: `key_${'k'.repeat(24)}` },
    atMs: t.clock.epochMs(),
    method: 'GET',
    route: '/v1/submissions/:id',
    url: '/v1/submissions/sub_000000000000000000000000?expand=x',
    status: 200,
    error: null,
    idempotencyKey: null,
    replayed: false,
    ms: 1.25,
    ip: '192.0.2.1',
    userAgent: 'x'.repeat(600),
    ...overrides,
  })
  const count = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('request_logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  before(async () => {
    t = await startTestApp()
    accountId = (await t.account()).accountId
  })
  after(() => t.close())

  it('writes 700 records in one flush (batches of powers of two), each once, as rows', async () => {
    const start = await count()
    const records = Array.from({ length: 700 }, () => record())
    for (const r of records) t.deps.requestLogs.record(r)
    await t.deps.requestLogs.flush()
    await t.deps.requestLogs.flush()
    assert.equal((await count()) - start, 700)
    const row = await t.deps.db
      .selectFrom('request_logs')
      .selectAll()
      .where('id', '=', records[699]!.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.route, '/v1/submissions/{id}')
    assert.equal(row.path, '/v1/submissions/sub_000000000000000000000000')
    assert.equal(row.user_agent?.length, 512)
    assert.equal(row.created_at, t.clock.now().toISOString())
    assert.equal(Number(row.replayed), 0)
  })

  it(`starts a write by itself once ${MAX_BATCH_ROWS} records wait`, async () => {
    const start = await count()
    for (let i = 0; i < MAX_BATCH_ROWS; i++) t.deps.requestLogs.record(record())
    const deadline = Date.now() + 5000
    while ((await count()) - start < MAX_BATCH_ROWS) {
      assert.ok(Date.now() < deadline, 'the full batch was not written')
      await nextTurn()
    }
  })

  it('keeps the records of a refused write and writes them with the next one', async () => {
    const start = await count()
    await sql`alter table request_logs rename to request_logs_away`.execute(t.deps.db)
    try {
      t.deps.requestLogs.record(record())
      await t.deps.requestLogs.flush()
    } finally {
      await sql`alter table request_logs_away rename to request_logs`.execute(t.deps.db)
    }
    assert.ok(t.logs.entries().some((e) => e.msg === 'request logs could not be written; retrying'))
    assert.equal(await count(), start)
    t.deps.requestLogs.record(record())
    await t.deps.requestLogs.flush()
    assert.equal((await count()) - start, 2)
  })

  it('openApiPath writes Fastify parameters as OpenAPI ones', () => {
    assert.equal(openApiPath('/v1/submitters/:id/embed_token'), '/v1/submitters/{id}/embed_token')
    assert.equal(openApiPath('/v1/health'), '/v1/health')
  })
})
