// POST /s/{slug}/open and POST /embed/{jwt}/open — docs/api.md#signing: the signer opened the
// document. The first open moves the submitter pending → opened (`submitter.opened`, with address
// and user agent) and an unopened submission to `viewed` (`submission.viewed`), in one transaction.
// Repeating it, or opening a finished or inactive submission, changes nothing and answers the form.
import { ApiError } from '../errors.ts'
import { applySubmissionMove } from '../lifecycle/apply-submission-move.ts'
import { actingMember, applySubmitterMove } from '../lifecycle/apply-submitter-move.ts'
import { moveFrom } from '../lifecycle/submission-moves.ts'
import { openSession } from './signer-act-lock.ts'
import { defineSignerRoutes } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

const changedMeanwhile = () =>
  new ApiError('internal_inconsistency', 'The document changed while it was being opened; retry.')

export const [openSigning, openEmbedSigning] = defineSignerRoutes({
  operationIds: ['openSigning', 'openEmbedSigning'],
  method: 'POST',
  action: 'open',
  summary: 'Record that the signer opened the document',
  description:
    'Idempotent: only the first open is recorded. Answers the signing form. 403 `email_2fa_required` while the e-mail code is not verified.',
  response: SigningForm,
  errors: ['email_2fa_required'],
  handler: async ({ ip, userAgent }, signer, deps) => {
    const { via } = signer
    const opened = await deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      if (session.state === 'email_2fa_required') {
        throw new ApiError('email_2fa_required', 'Enter the code sent to your e-mail address first.')
      }
      const seesDocument = session.state === 'ready' || session.state === 'waiting_for_others'
      if (!seesDocument || session.submitter.status !== 'pending') return session.submitter
      const act = { ip, userAgent: userAgent ?? null, via, member: session.member }
      const moved = await applySubmitterMove(tx, deps, session.submitter, 'open', act, changedMeanwhile)
      if (moveFrom(session.submission.status, 'view') && session.submission.all_signed_at === null) {
        const actor = {
          submitterId: moved.id,
          ip,
          userAgent: userAgent ?? null,
          member: session.member && actingMember(session.member),
        }
        await applySubmissionMove(tx, deps, session.submission, 'view', changedMeanwhile, { actor })
      }
      return moved
    })
    return signingForm(deps, opened, signer.sessions, signer.member)
  },
})
