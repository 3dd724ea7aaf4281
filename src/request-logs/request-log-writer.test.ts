import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql } from 'kysely'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { randomBase62 } from '../lib/ids.ts'
import { batchRows } from './request-log-codec.ts'
import { decodeBatch, openApiPath, type RequestRecord, requestIdParts } from './request-log-form.ts'
import { MAX_BATCH_ROWS, MAX_BUFFERED_ROWS } from './request-log-writer.ts'

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
  /** The account's stored records, every batch's. */
  const stored = async () =>
    (
      await t.deps.db
        .selectFrom('request_log_batches')
        .selectAll()
        .where('account_id', '=', accountId)
        .execute()
    ).flatMap(decodeBatch)
  const count = async () => (await stored()).length

  before(async () => {
    t = await startTestApp()
    accountId = (await t.account()).accountId
  })
  after(() => t.close())

  it('writes 700 records in one flush as one batch of the account, each once', async () => {
    const start = await count()
    const records = Array.from({ length: 700 }, () => record())
    for (const r of records) t.deps.requestLogs.record(r)
    await t.deps.requestLogs.flush()
    await t.deps.requestLogs.flush()
    const all = await stored()
    assert.equal(all.length - start, 700)
    assert.equal(new Set(all.map((r) => r[0])).size, all.length)
    const last = all.find((r) => r[0] === records[699]!.id)!
    const [, atMs, , method, route, path, status, , , replayed, , , userAgent] = last
    assert.equal(route, '/v1/submissions/{id}')
    assert.equal(path, '/v1/submissions/sub_000000000000000000000000')
    assert.equal(userAgent?.length, 512)
    assert.equal(atMs, t.clock.epochMs())
    assert.equal(method, 'GET')
    assert.equal(status, 200)
    assert.equal(replayed, 0)
  })

  it('writes one batch per account and environment, with what a read needs to find it', async () => {
    const other = (await t.account('other')).accountId
    const mine = [
      record({ id: 'req_AbCdEfGhIj00000000000007', status: 404, route: null, url: '/v1/nowhere' }),
      record({ id: 'req_AbCdEfGhIj00000000000003' }),
    ]
    const live = record({
      id: 'req_AbCdEfGhIj00000000000005',
      scope: { accountId, environment: 'live', keyId: `key_${'l'.repeat(24)}` },
    })
    const theirs = record({
      id: 'req_AbCdEfGhIj0000000000000A',
      scope: { accountId: other, environment: 'test', keyId: `key_${'o'.repeat(24)}` },
    })
    const rows = batchRows([mine[0]!, live, theirs, mine[1]!])
    assert.deepEqual(
      rows.map((r) => [r.account_id, r.environment, r.count]),
      [
        [accountId, 'test', 2],
        [accountId, 'live', 1],
        [other, 'test', 1],
      ],
    )
    const [first] = rows
    assert.equal(first!.id, mine[0]!.id)
    assert.equal(first!.id_prefix, 'AbCdEfGhIj')
    assert.deepEqual([first!.first_seq, first!.last_seq], [3, 7])
    assert.equal(first!.statuses, ',404,200,')
    assert.equal(first!.routes, '||/v1/submissions/{id}|')
    assert.deepEqual(requestIdParts('req_AbCdEfGhIj0000000000000A'), { prefix: 'AbCdEfGhIj', seq: 10 })
    assert.equal(requestIdParts('req_short'), undefined)
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
    await sql`alter table request_log_batches rename to request_log_batches_away`.execute(t.deps.db)
    try {
      t.deps.requestLogs.record(record())
      await t.deps.requestLogs.flush()
    } finally {
      await sql`alter table request_log_batches_away rename to request_log_batches`.execute(t.deps.db)
    }
    assert.ok(t.logs.entries().some((e) => e.msg === 'request logs could not be written; retrying'))
    assert.equal(await count(), start)
    t.deps.requestLogs.record(record())
    await t.deps.requestLogs.flush()
    assert.equal((await count()) - start, 2)
  })

  it(`keeps at most ${MAX_BUFFERED_ROWS} refused records, dropping the oldest batches and counting them`, async () => {
    const start = await count()
    const older = Array.from({ length: 15_000 }, () => record())
    const newer = Array.from({ length: 10_000 }, () => record())
    await sql`alter table request_log_batches rename to request_log_batches_away`.execute(t.deps.db)
    try {
      for (const r of older) t.deps.requestLogs.record(r)
      await t.deps.requestLogs.flush()
      for (const r of newer) t.deps.requestLogs.record(r)
      await t.deps.requestLogs.flush()
    } finally {
      await sql`alter table request_log_batches_away rename to request_log_batches`.execute(t.deps.db)
    }
    const warning = t.logs
      .entries()
      .filter((e) => e.msg === 'request logs could not be written; retrying')
      .at(-1)
    assert.equal(warning?.waiting, 10_000)
    assert.equal(warning?.dropped_total, 15_000)
    await t.deps.requestLogs.flush()
    const ids = new Set((await stored()).map((r) => r[0]))
    assert.equal(ids.size - start, 10_000)
    assert.ok(newer.every((r) => ids.has(r.id)))
    assert.ok(!older.some((r) => ids.has(r.id)))
  })

  it('openApiPath writes Fastify parameters as OpenAPI ones', () => {
    assert.equal(openApiPath('/v1/submitters/:id/embed_token'), '/v1/submitters/{id}/embed_token')
    assert.equal(openApiPath('/v1/health'), '/v1/health')
  })
})
