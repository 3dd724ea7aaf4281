import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { signerState } from './signer-state.ts'

const now = new Date('2026-11-22T10:00:00Z')
const submission = { status: 'sent' as const, expires_at: null, signing_order: 'preserved' as const }
const first = { status: 'pending' as const, position: 0, require_email_2fa: 0 }
const second = { status: 'pending' as const, position: 1, require_email_2fa: 0 }

describe('signerState', () => {
  it('is ready for the first signer and waiting for the second in preserved order', () => {
    assert.equal(signerState(submission, first, [first, second], now, false), 'ready')
    assert.equal(signerState(submission, second, [first, second], now, false), 'waiting_for_others')
    assert.equal(
      signerState({ ...submission, signing_order: 'random' }, second, [first, second], now, false),
      'ready',
    )
    const signedFirst = { ...first, status: 'signed' as const }
    assert.equal(signerState(submission, second, [signedFirst, second], now, false), 'ready')
    const preSigned = { ...first, status: 'pre_signed' as const }
    assert.equal(signerState(submission, second, [preSigned, second], now, false), 'ready')
  })

  it('asks for the e-mail code first when required', () => {
    const guarded = { ...first, require_email_2fa: 1 }
    assert.equal(signerState(submission, guarded, [guarded], now, false), 'email_2fa_required')
    assert.equal(signerState(submission, guarded, [guarded], now, true), 'ready')
  })

  it('shows final states before anything else', () => {
    assert.equal(signerState({ ...submission, status: 'cancelled' }, first, [first], now, false), 'cancelled')
    assert.equal(signerState({ ...submission, status: 'expired' }, first, [first], now, false), 'expired')
    assert.equal(
      signerState({ ...submission, expires_at: '2026-11-22T09:59:59.000Z' }, first, [first], now, false),
      'expired',
    )
    assert.equal(signerState({ ...submission, status: 'completed' }, first, [first], now, false), 'completed')
    assert.equal(signerState(submission, { ...first, status: 'signed' }, [first], now, false), 'signed')
    assert.equal(signerState(submission, { ...first, status: 'declined' }, [first], now, false), 'declined')
  })
})
