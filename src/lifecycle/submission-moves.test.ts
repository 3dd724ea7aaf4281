import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { moveFrom, SUBMISSION_STATUSES } from './submission-moves.ts'

const ALL = SUBMISSION_STATUSES

describe('submission moves (docs/api.md#statuses-and-moves)', () => {
  it('cancels only a submission not already completed, declined, expired or cancelled', () => {
    const cancellable = ALL.filter((s) => moveFrom(s, 'cancel'))
    assert.deepEqual(cancellable, ['created', 'sent', 'viewed', 'partially_signed'])
    assert.equal(moveFrom('sent', 'cancel')?.event, 'submission.cancelled')
    assert.equal(moveFrom('sent', 'cancel')?.to, 'cancelled')
  })

  it('never leaves a final status', () => {
    for (const status of ['completed', 'declined', 'expired', 'cancelled'] as const) {
      for (const trigger of ['send', 'view', 'sign', 'complete', 'decline', 'expire', 'cancel'] as const) {
        assert.equal(moveFrom(status, trigger), null, `${status} --${trigger}`)
      }
    }
  })

  it('sends only a created submission and views only an unsigned one', () => {
    assert.equal(moveFrom('created', 'send')?.to, 'sent')
    assert.equal(moveFrom('sent', 'send'), null)
    assert.equal(moveFrom('sent', 'view')?.to, 'viewed')
    assert.equal(moveFrom('partially_signed', 'view'), null)
  })
})
