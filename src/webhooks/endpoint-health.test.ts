import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  afterFailure,
  afterSuccess,
  afterTestSuccess,
  DISABLE_AFTER_MS,
  dueForDisabling,
  type HealthColumns,
} from './endpoint-health.ts'

const healthy: HealthColumns = {
  consecutive_failures: 0,
  failing: 0,
  failing_since: null,
  disabled_at: null,
  last_success_at: null,
  last_success_status: null,
  last_failure_at: null,
  last_failure_reason: null,
}
const t0 = new Date('2026-11-22T10:00:00.000Z')

function fail(times: number, from: HealthColumns = healthy, step = 1000) {
  let row = from
  const changes = []
  for (let i = 0; i < times; i++) {
    const change = afterFailure(row, `HTTP 500 (${i})`, new Date(t0.getTime() + i * step))
    row = { ...row, ...change.set }
    changes.push(change)
  }
  return { row, changes }
}

describe('endpoint health', () => {
  it('counts failures and becomes failing at the 8th, once', () => {
    const { row, changes } = fail(10)
    assert.equal(row.consecutive_failures, 10)
    assert.equal(row.failing, 1)
    assert.deepEqual(
      changes.map((c) => c.becameFailing),
      [false, false, false, false, false, false, false, true, false, false],
    )
    assert.equal(row.failing_since, t0.toISOString())
    assert.equal(row.last_failure_reason, 'HTTP 500 (9)')
  })

  it('a success ends the run: counters reset, failing cleared, a new run mails again', () => {
    const { row } = fail(8)
    const ok = { ...row, ...afterSuccess(200, t0).set }
    assert.equal(ok.consecutive_failures, 0)
    assert.equal(ok.failing, 0)
    assert.equal(ok.failing_since, null)
    assert.equal(ok.last_success_status, 200)
    assert.equal(fail(8, ok).changes[7]?.becameFailing, true)
  })

  it('disables a failing endpoint 7 days into the run, not before', () => {
    const { row } = fail(8)
    const early = afterFailure(row, 'HTTP 500', new Date(t0.getTime() + DISABLE_AFTER_MS - 1))
    assert.equal(early.becameDisabled, false)
    const late = afterFailure(row, 'HTTP 500', new Date(t0.getTime() + DISABLE_AFTER_MS))
    assert.equal(late.becameDisabled, true)
    assert.ok(late.set.disabled_at)
    assert.equal(dueForDisabling(row, new Date(t0.getTime() + DISABLE_AFTER_MS)), true)
    assert.equal(dueForDisabling(row, new Date(t0.getTime() + DISABLE_AFTER_MS - 1)), false)
  })

  it('7 days of rare failures without reaching 8 does not disable', () => {
    const { row } = fail(3, healthy, DISABLE_AFTER_MS)
    assert.equal(row.failing, 0)
    assert.equal(row.disabled_at, null)
  })

  it('only the test endpoint lifts the disabling', () => {
    assert.equal('disabled_at' in afterSuccess(200, t0).set, false)
    assert.equal(afterTestSuccess(204, t0).set.disabled_at, null)
  })
})
