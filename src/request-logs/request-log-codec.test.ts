import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { randomBase62, requestIdSource } from '../lib/ids.ts'
import { batchRows, RequestLogBuffer } from './request-log-codec.ts'
import { decodeBatch, type RequestRecord, type StoredRecord } from './request-log-form.ts'

const scope = { accountId: 'acct_codec', environment: 'test' as const, keyId: `key_${'k'.repeat(24)}` }
const at = Date.parse('2026-11-26T12:00:00.000Z')

function record(id: string, overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    id,
    scope,
    atMs: at,
    method: 'GET',
    route: '/v1/health',
    url: '/v1/health',
    status: 200,
    error: null,
    idempotencyKey: null,
    replayed: false,
    ms: 0.31,
    ip: '127.0.0.1',
    userAgent: 'autocannon/7',
    ...overrides,
  }
}

/** What form 1 stored for a record (the batch's records as RECORD_FIELDS arrays). */
function formOne(r: RequestRecord): StoredRecord {
  const e = r.error
  return [
    r.id,
    r.atMs,
    r.scope.keyId,
    r.method,
    r.route?.replace(/:([A-Za-z_]+)/g, '{$1}') ?? null,
    r.url.split('?')[0]!,
    r.status,
    e?.code ?? null,
    r.idempotencyKey,
    r.replayed ? 1 : 0,
    r.ms,
    r.ip,
    r.userAgent?.slice(0, 512) ?? null,
    e === null ? null : { error: { type: e.type, code: e.code, message: e.message } },
  ]
}

/** The one row of records of one account and environment. */
function only(records: RequestRecord[]) {
  const rows = batchRows(records)
  assert.equal(rows.length, 1)
  return rows[0]!
}

describe('request log batch form', () => {
  it('gives back every field of every request, in the order written', () => {
    const next = requestIdSource()
    const failed = new ApiError('resource_not_found', 'No such submission.')
    const records = [
      record(next()),
      record(next(), {
        atMs: at + 180,
        method: 'POST',
        route: '/v1/submissions/:id/cancel',
        url: '/v1/submissions/sub_1/cancel?x=a@b.example',
        status: 404,
        error: failed,
        idempotencyKey: 'idem-1',
        replayed: true,
        ms: 12.5,
        ip: '2001:db8::1',
        userAgent: 'ü'.repeat(700),
      }),
      record(next(), { route: null, url: '/v1/nowhere', status: 404, userAgent: undefined, ms: 0 }),
      record(next(), { atMs: at + 3 }),
    ]
    const batch = only(records)
    assert.equal(batch.count, 4)
    assert.equal(batch.first_at, '2026-11-26T12:00:00.000Z')
    assert.equal(batch.last_at, '2026-11-26T12:00:00.180Z')
    assert.deepEqual(decodeBatch(batch), records.map(formOne))
  })

  it('keeps ids that share no counter range as they are', () => {
    const records = [
      record(`req_${randomBase62(24)}`),
      record('req_ABCDEFGHIJ0000000000000z'),
      record('not-a-request-id'),
    ]
    const batch = only(records)
    assert.deepEqual([batch.id_prefix, batch.last_seq], ['', -1])
    assert.deepEqual(
      decodeBatch(batch).map((r) => r[0]),
      records.map((r) => r.id),
    )
  })

  it('uses the counter range when the ids share a prefix, in whatever order they came', () => {
    const ids = [
      'req_AbCdEfGhIj0000000000000B',
      'req_AbCdEfGhIj00000000000009',
      'req_AbCdEfGhIj0000000000001z',
    ]
    const batch = only(ids.map((id) => record(id)))
    assert.deepEqual([batch.id_prefix, batch.first_seq, batch.last_seq], ['AbCdEfGhIj', 9, 62 + 61])
    assert.deepEqual(
      decodeBatch(batch).map((r) => r[0]),
      ids,
    )
  })

  it('reads every digit of a counter, and takes an id of another process as it is', () => {
    const far = ['req_AbCdEfGhIj00000001000001', 'req_AbCdEfGhIj00000002000003']
    const farRow = only(far.map((id) => record(id)))
    assert.equal(farRow.id_prefix, 'AbCdEfGhIj')
    assert.equal(Number(farRow.last_seq) - Number(farRow.first_seq), 62 ** 6 + 2)
    assert.deepEqual(
      decodeBatch(farRow).map((r) => r[0]),
      far,
    )
    const mixed = ['req_AbCdEfGhIj00000001000001', 'req_OtherPrefx00000001000002']
    const mixedRow = only(mixed.map((id) => record(id)))
    assert.deepEqual([mixedRow.id_prefix, mixedRow.last_seq], ['', -1])
    assert.deepEqual(
      decodeBatch(mixedRow).map((r) => r[0]),
      mixed,
    )
  })

  it('keeps times and durations beyond 32-bit integers whole', () => {
    const records = [
      record('req_AbCdEfGhIj00000000000001', { ms: 30_000_000.25 }),
      record('req_AbCdEfGhIj00000000000002', { atMs: at + 30 * 24 * 3600 * 1000 }),
    ]
    assert.deepEqual(decodeBatch(only(records)), records.map(formOne))
  })

  it('starts each batch afresh though it reuses the memory of the last one', () => {
    const buffer = new RequestLogBuffer()
    const first = [
      record('not-a-request-id', { idempotencyKey: 'k1', replayed: true }),
      record('req_AbCdEfGhIj00000000000002', {
        error: new ApiError('resource_not_found', 'No such template.'),
        status: 404,
        userAgent: 'curl/8',
      }),
    ]
    for (const r of first) buffer.add(r)
    const [one] = buffer.drain()
    assert.deepEqual(decodeBatch(one!), first.map(formOne))
    const other = { accountId: 'acct_other', environment: 'live' as const, keyId: 'key_other' }
    const second = ['req_XyZXyZXyZX00000000000007', 'req_XyZXyZXyZX00000000000009'].map((id) =>
      record(id, { scope: other, ip: '192.0.2.9' }),
    )
    for (const r of second) buffer.add(r)
    assert.equal(buffer.count, 2)
    const [two] = buffer.drain()
    assert.deepEqual(
      [two!.account_id, two!.environment, two!.id_prefix, two!.count],
      ['acct_other', 'live', 'XyZXyZXyZX', 2],
    )
    assert.deepEqual(decodeBatch(two!), second.map(formOne))
    assert.ok(!two!.records.includes('curl') && !two!.records.includes('errors'))
  })

  it('still reads rows of form 1', () => {
    const records = [record('req_AbCdEfGhIj00000000000001'), record('req_AbCdEfGhIj00000000000002')]
    const stored = records.map(formOne)
    const row = { ...only(records), records: JSON.stringify(stored) }
    assert.deepEqual(decodeBatch(row), stored)
  })

  it('writes a batch of repeated requests at least five times smaller than form 1', () => {
    const next = requestIdSource()
    const records = Array.from({ length: 2048 }, (_, i) => record(next(), { atMs: at + (i >> 4) }))
    const packed = only(records).records.length
    const plain = JSON.stringify(records.map(formOne)).length
    assert.ok(packed * 5 < plain, `form 2 ${packed} bytes, form 1 ${plain}`)
  })
})
