// The retry policy of docs/sdks.md#retries-and-idempotency as a table: what is retried, after
// how long, and what never is (pure; the same rules run against Paraph in sdk-calls.test.ts).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DEFAULT_RETRY, fullJitter, type Outcome, retryDelay } from './retry.ts'

const answer = (status: number, code = 'x', retryAfterMs?: number): Outcome => ({
  kind: 'answer',
  status,
  code,
  retryAfterMs,
})
const policy = { ...DEFAULT_RETRY, random: () => 0.999 }

describe('retry policy', () => {
  it('full jitter: uniform below min(cap, base·2^attempt)', () => {
    assert.equal(fullJitter({ ...policy, random: () => 0 }, 3), 0)
    assert.equal(fullJitter(policy, 0), 499)
    assert.equal(fullJitter(policy, 1), 999)
    assert.equal(fullJitter(policy, 10), 7992, 'capped at 8 s')
  })

  it('429 and 5xx are retried, after Retry-After when given; 409 idempotency_key_in_use too', () => {
    assert.equal(retryDelay(policy, 0, answer(429, 'rate_limit_exceeded', 1000), false), 1000)
    assert.equal(retryDelay(policy, 0, answer(503), true), 499)
    assert.equal(retryDelay(policy, 1, answer(500, 'db_error', 2000), true), 2000)
    assert.equal(retryDelay(policy, 0, answer(409, 'idempotency_key_in_use', 1000), true), 1000)
  })

  it('other 4xx never; 5xx of a POST without Idempotency-Key never; a Retry-After over the cap is not waited', () => {
    for (const status of [400, 401, 403, 404, 413, 415, 422])
      assert.equal(retryDelay(policy, 0, answer(status), true), null)
    assert.equal(retryDelay(policy, 0, answer(409, 'submission_already_finalized'), true), null)
    assert.equal(retryDelay(policy, 0, answer(500), false), null)
    assert.equal(retryDelay(policy, 0, answer(429, 'rate_limit_exceeded', 61_000), true), null)
  })

  it('network errors: retried when a repeat is safe or the connection was refused', () => {
    assert.equal(retryDelay(policy, 0, { kind: 'network', refused: false }, true), 499)
    assert.equal(retryDelay(policy, 0, { kind: 'network', refused: false }, false), null)
    assert.equal(retryDelay(policy, 0, { kind: 'network', refused: true }, false), 499)
  })

  it('stops after maxRetries', () => {
    assert.equal(retryDelay(policy, 2, answer(503), true), null)
    assert.equal(retryDelay({ ...policy, maxRetries: 5 }, 4, answer(503), true), 7992)
  })
})
