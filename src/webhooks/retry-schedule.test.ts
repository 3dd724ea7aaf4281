import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nextAttemptAt } from './retry-schedule.ts'

const event = '2026-11-22T10:00:00.000Z'
const at = (seconds: number) => new Date(Date.parse(event) + seconds * 1000)
const schedule = [0, 30, 300, 1800, 7200, 21600, 86400, 259200]

describe('nextAttemptAt', () => {
  it('follows the schedule from the event time', () => {
    assert.deepEqual(nextAttemptAt(event, 0, schedule, at(0)), at(0))
    assert.deepEqual(nextAttemptAt(event, 1, schedule, at(1)), at(30))
    assert.deepEqual(nextAttemptAt(event, 7, schedule, at(86401)), at(259200))
  })

  it('is now when the attempt is already late, and later attempts keep their own time', () => {
    assert.deepEqual(nextAttemptAt(event, 1, schedule, at(100)), at(100))
    assert.deepEqual(nextAttemptAt(event, 2, schedule, at(100)), at(300))
  })

  it('null after the last attempt', () => {
    assert.equal(nextAttemptAt(event, 8, schedule, at(300000)), null)
    assert.equal(nextAttemptAt(event, 1, [0], at(1)), null)
  })
})
