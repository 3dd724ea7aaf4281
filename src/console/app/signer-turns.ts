// Where each signer stands, as a person reads it (issue #33): in `preserved` order only the first
// signer still to sign has been asked ("Sent — their turn"); those after them wait for that signer
// ("Waiting for Client"), whatever their own status says (`pending` for both). In `random` order, or
// once the submission is over, a signer's status is the API's. docs/api.md#creating-a-submission:
// preserved order asks each signer once the previous one signed. Pure: node's tests run it.
import type { Submission, Submitter } from './types.ts'

export type SignerState =
  /** As the API says (signed, declined, opened…; pending in random order). */
  | { kind: 'status'; status: Submitter['status'] }
  /** Preserved order: asked and not yet opened; `mailed` when the request went by mail. */
  | { kind: 'turn'; mailed: boolean }
  /** Preserved order: an earlier signer (this role) signs first. */
  | { kind: 'waiting_for'; role: string }

const OPEN: readonly Submission['status'][] = ['created', 'sent', 'viewed', 'partially_signed']
const STILL_TO_SIGN: readonly Submitter['status'][] = ['pending', 'opened']

type Order = Pick<Submission, 'status' | 'signing_order' | 'submitters'>

/** The signer whose turn it is in preserved order on an open submission; undefined otherwise. */
export function signerInTurn(submission: Order): Submitter | undefined {
  if (submission.signing_order !== 'preserved' || !OPEN.includes(submission.status)) return undefined
  return submission.submitters.find((s) => STILL_TO_SIGN.includes(s.status))
}

/** Each signer's state, by id. */
export function signerStates(submission: Order): Map<string, SignerState> {
  const turn = signerInTurn(submission)
  const states = new Map<string, SignerState>()
  let before = true
  for (const signer of submission.submitters) {
    const isTurn = signer.id === turn?.id
    if (isTurn && signer.status === 'pending')
      states.set(signer.id, { kind: 'turn', mailed: signer.send_email })
    else if (turn && !before && STILL_TO_SIGN.includes(signer.status))
      states.set(signer.id, { kind: 'waiting_for', role: turn.role })
    else states.set(signer.id, { kind: 'status', status: signer.status })
    if (isTurn) before = false
  }
  return states
}

/** The first signer asked when the submission was sent in preserved order (a signer signed at creation is never asked). */
export function firstAsked(submission: Order): Submitter | undefined {
  if (submission.signing_order !== 'preserved') return undefined
  return submission.submitters.find((s) => s.status !== 'pre_signed')
}
