// POST /s/{slug}/decline and POST /embed/{jwt}/decline — docs/api.md#signing: the signer refuses to
// sign, with a reason. The submitter becomes `declined` (time, address, user agent and reason kept
// for the audit trail) and the submission `declined` (`submission.declined`), in one transaction.
// Decided where the contract is silent: a signer may decline before their turn in preserved order
// (they may already know they will not sign), but not after signing.
import { Type } from 'typebox'
import { deleteProgress } from '../documents/signing-progress-store.ts'
import { ApiError, fieldError } from '../errors.ts'
import { applySubmissionMove } from '../lifecycle/apply-submission-move.ts'
import { actingMember, applySubmitterMove } from '../lifecycle/apply-submitter-move.ts'
import { PageLanguage } from '../submissions/consent.ts'
import { openSession, refusalOf } from './signer-act-lock.ts'
import { defineSignerRoutes } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

const DeclineBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Why the signer declines; shown to the sender and kept in the audit trail',
    }),
    language: Type.Optional(PageLanguage),
  },
  { additionalProperties: false, title: 'DeclineRequest' },
)

const changedMeanwhile = () =>
  new ApiError('submitter_already_finalized', 'This document changed while you were declining it; reload it.')

export const [declineSigning, declineEmbedSigning] = defineSignerRoutes({
  operationIds: ['declineSigning', 'declineEmbedSigning'],
  method: 'POST',
  action: 'decline',
  summary: 'Decline to sign',
  description: 'Ends the submission for everyone (`declined`). Answers the signing form in its new state.',
  body: DeclineBody,
  response: SigningForm,
  errors: ['submitter_already_finalized', 'submission_not_active', 'email_2fa_required'],
  handler: async ({ body, ip, userAgent }, signer, deps) => {
    const { via } = signer
    const reason = body.reason.trim()
    if (reason === '') throw fieldError('invalid_request', 'reason', 'must say why, not only spaces.')
    const declined = await deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      const refusal = refusalOf(session, 'decline')
      if (refusal) throw refusal
      // docs/api.md#signer-groups: a member declines for the role, as a signer does.
      const act = { ip, userAgent: userAgent ?? null, via, member: session.member }
      const moved = await applySubmitterMove(tx, deps, session.submitter, 'decline', act, changedMeanwhile, {
        declineReason: reason,
        ...(body.language ? { language: body.language } : {}),
      })
      const actor = {
        submitterId: moved.id,
        ip,
        userAgent: userAgent ?? null,
        member: session.member && actingMember(session.member),
      }
      // The submission's move deletes every signer's saved progress; this signer's goes by name too.
      await deleteProgress(tx, moved)
      await applySubmissionMove(tx, deps, session.submission, 'decline', changedMeanwhile, { actor })
      return moved
    })
    return signingForm(deps, declined, signer.sessions, signer.member)
  },
})
