import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { firstAsked, signerStates } from './app/signer-turns.ts'
import type { Submission, Submitter } from './app/types.ts'

function signer(id: string, role: string, status: Submitter['status'], send_email = true): Submitter {
  return { id, role, status, send_email } as Submitter
}

function submission(
  signing_order: Submission['signing_order'],
  status: Submission['status'],
  submitters: Submitter[],
): Pick<Submission, 'status' | 'signing_order' | 'submitters'> {
  return { signing_order, status, submitters }
}

describe('where each signer stands', () => {
  it('preserved order, just sent: the first one’s turn, the second waits for the first’s role', () => {
    const states = signerStates(
      submission('preserved', 'sent', [signer('a', 'Client', 'pending'), signer('b', 'Provider', 'pending')]),
    )
    assert.deepEqual(states.get('a'), { kind: 'turn', mailed: true })
    assert.deepEqual(states.get('b'), { kind: 'waiting_for', role: 'Client' })
  })

  it('preserved order: a signed signer stays signed, the turn passes to the next, an opened one is opened', () => {
    const states = signerStates(
      submission('preserved', 'partially_signed', [
        signer('a', 'Client', 'signed'),
        signer('b', 'Provider', 'opened'),
        signer('c', 'Witness', 'pending'),
      ]),
    )
    assert.deepEqual(states.get('a'), { kind: 'status', status: 'signed' })
    assert.deepEqual(states.get('b'), { kind: 'status', status: 'opened' })
    assert.deepEqual(states.get('c'), { kind: 'waiting_for', role: 'Provider' })
  })

  it('a signer whose link is not mailed has their turn, not "sent"', () => {
    const states = signerStates(submission('preserved', 'sent', [signer('a', 'Client', 'pending', false)]))
    assert.deepEqual(states.get('a'), { kind: 'turn', mailed: false })
  })

  it('random order, or a submission that is over: the API’s status', () => {
    const pair = [signer('a', 'Client', 'pending'), signer('b', 'Provider', 'pending')]
    for (const s of [submission('random', 'sent', pair), submission('preserved', 'cancelled', pair)]) {
      const states = signerStates(s)
      assert.deepEqual(states.get('a'), { kind: 'status', status: 'pending' })
      assert.deepEqual(states.get('b'), { kind: 'status', status: 'pending' })
    }
  })

  it('the first asked in preserved order skips a signer signed at creation; none in random order', () => {
    const trio = [
      signer('a', 'Bank', 'pre_signed'),
      signer('b', 'Client', 'pending'),
      signer('c', 'X', 'pending'),
    ]
    assert.equal(firstAsked(submission('preserved', 'sent', trio))?.id, 'b')
    assert.equal(firstAsked(submission('random', 'sent', trio)), undefined)
  })
})
