import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import { pino } from 'pino'
import { LogCapture } from '../../test/harness.ts'
import { ManualClock } from './clock.ts'
import { Outage } from './outage.ts'

describe('Outage', () => {
  const setUp = () => {
    const logs = new LogCapture()
    const clock = new ManualClock('2026-11-26T10:00:00.000Z')
    const logger = pino(logs) as unknown as FastifyBaseLogger
    return { logs, clock, outage: new Outage({ logger, clock, what: 'database' }) }
  }

  it('logs the first failure of an outage only, and its end once, with how long it lasted', () => {
    const { logs, clock, outage } = setUp()
    outage.recovered()
    assert.equal(logs.lines.length, 0, 'no outage, nothing to say')
    for (let i = 0; i < 50; i++) {
      outage.failed(new Error('connect ECONNREFUSED'), 'job worker')
      clock.advance(100)
    }
    assert.equal(outage.down, true)
    outage.recovered()
    outage.recovered()
    const entries = logs.entries()
    assert.deepEqual(
      entries.map((e) => [e.level, e.msg]),
      [
        [40, 'database unavailable (job worker); backing off and retrying until it is back'],
        [30, 'database is back'],
      ],
    )
    assert.deepEqual([entries[1]!.down_ms, entries[1]!.failures], [5000, 50])
    assert.equal(outage.down, false)
  })

  it('waits twice as long after each failure, up to 5 s, and starts over after a recovery', () => {
    const { outage } = setUp()
    const waits = Array.from({ length: 8 }, () => outage.failed(new Error('down')))
    assert.deepEqual(waits, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000])
    outage.recovered()
    assert.equal(outage.failed(new Error('down again')), 250)
  })
})
