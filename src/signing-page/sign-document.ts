// POST /s/{slug}/sign and POST /embed/{jwt}/sign — docs/api.md#signing: the signer signs.
// Order: the state refusals (410, 409, 403) before any costly check; then every value against the
// signer's fields (422 invalid_field_value), images read to their pixels, and the required fields
// (422 missing_required_fields) as the values would be once stored; only then the images are
// written, by hash (a refused request writes nothing); then, in one transaction with the
// submission locked, the state and the required fields again, the submitter's move with its journal
// event, and the submission's: `partially_signed` while others remain (with the next signing request
// in preserved order), or, for the last signer, the completion fence and the finalization job.
import { type Static, Type } from 'typebox'
import type { SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { deleteProgress } from '../documents/signing-progress-store.ts'
import { imageBlobKey, parseStoredValues, type StoredValues } from '../documents/stored-values.ts'
import { ApiError } from '../errors.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { type Actor, applySubmissionMove, markAllSigned } from '../lifecycle/apply-submission-move.ts'
import { actingMember, applySubmitterMove, type SignerAct } from '../lifecycle/apply-submitter-move.ts'
import { FINISHED_SUBMITTER_STATUSES } from '../lifecycle/submitter-moves.ts'
import { LIMITS } from '../limits.ts'
import { PageLanguage } from '../submissions/consent.ts'
import { startReminderClocks } from '../submissions/reminders.ts'
import { queueSigningRequests } from '../submissions/signing-requests.ts'
import { findTemplate } from '../templates/template-store.ts'
import { type CheckedValues, checkRequired, checkSignValues } from './sign-values.ts'
import { openSession, peekSession, refusalOf, type SigningSession } from './signer-act-lock.ts'
import { defineSignerRoutes, type Signer } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

const SignBody = Type.Object(
  {
    values: Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
      {
        maxProperties: 500,
        description:
          'Field name → value: `signature`/`initials` a PNG data URL (at most 512 KB, 4000 × 4000 px), `date` YYYY-MM-DD, `text` at most 1000 characters, `number` a JSON number, `checkbox` a boolean (a required one must be true), `radio`/`select` one of the options',
      },
    ),
    language: Type.Optional(PageLanguage),
  },
  { additionalProperties: false, title: 'SignRequest' },
)
type SignBody = Static<typeof SignBody>

const changedMeanwhile = () =>
  new ApiError('submitter_already_finalized', 'This document changed while you were signing it; reload it.')

/** The request's values as they will be stored: images by the key of their hash, not written yet. */
function planValues(submitter: SubmittersTable, checked: CheckedValues) {
  const images = checked.images.map(({ field, png, width, height }) => {
    const sha256 = sha256Hex(png)
    return { field, png, stored: { image: imageBlobKey(submitter, sha256), sha256, width, height } }
  })
  const values: StoredValues = {
    ...checked.plain,
    ...Object.fromEntries(images.map(({ field, stored }) => [field, stored])),
  }
  return { values, images }
}

/**
 * Writes the images once every check passed, before the transaction (a blob write inside it would
 * hold the submission's lock, and SQLite's one connection, for as long). Named by hash, so a
 * retry writes the same blobs; a request refused by a change between the first look and the
 * transaction (a cancel, a concurrent sign) may leave its images behind, at most once per change.
 */
async function storeImages(deps: Deps, images: ReturnType<typeof planValues>['images']): Promise<void> {
  await Promise.all(images.map(({ png, stored }) => deps.blobs.put(stored.image, png, 'image/png')))
}

/** After the signer's move: the submission's own move, or the fence when nobody is left. */
async function moveSubmission(
  tx: Tx,
  deps: Deps,
  session: SigningSession,
  signed: SubmittersTable,
  actor: Actor,
) {
  const everyone = session.everyone.map((s) => (s.id === signed.id ? signed : s))
  const remaining = everyone.filter((s) => !FINISHED_SUBMITTER_STATUSES.includes(s.status))
  if (remaining.length === 0) {
    if (!(await markAllSigned(tx, deps, session.submission))) throw changedMeanwhile()
    return
  }
  const moved = await applySubmissionMove(tx, deps, session.submission, 'sign', changedMeanwhile, { actor })
  // Preserved order: the next signer is asked now (random order asked everyone at creation), and
  // their reminder clock starts (docs/api.md#reminders).
  if (moved.signing_order === 'preserved') {
    await queueSigningRequests(tx, deps, moved, everyone)
    await startReminderClocks(tx, deps, moved, everyone)
  }
}

async function sign(deps: Deps, signer: Signer, act: SignerAct, body: SignBody) {
  const { submitter } = signer
  const first = await peekSession(deps, signer)
  const early = refusalOf(first, 'sign')
  if (early) throw early
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const template = await findTemplate(deps.db, scope, first.submission.template_id)
  if (!template) throw new ApiError('internal_inconsistency', 'The document of this signing link is missing.')
  const checked = await checkSignValues(template.fields, submitter.role, body.values)
  const { values: given, images } = planValues(submitter, checked)
  checkRequired(template.fields, submitter.role, { ...parseStoredValues(first.submitter.values), ...given })
  await storeImages(deps, images)
  return deps.db.transaction().execute(async (tx) => {
    const session = await openSession(tx, deps, signer)
    const refusal = refusalOf(session, 'sign')
    if (refusal) throw refusal
    const values = { ...parseStoredValues(session.submitter.values), ...given }
    checkRequired(template.fields, submitter.role, values)
    const details = { values: JSON.stringify(values), ...(body.language ? { language: body.language } : {}) }
    // docs/api.md#signer-groups: a member signs for the group; the first to commit wins.
    const signed = await applySubmitterMove(
      tx,
      deps,
      session.submitter,
      'sign',
      { ...act, member: session.member },
      changedMeanwhile,
      details,
    )
    await moveSubmission(tx, deps, session, signed, {
      submitterId: signed.id,
      ip: act.ip,
      userAgent: act.userAgent,
      member: session.member && actingMember(session.member),
    })
    // docs/api.md#saving-progress: what was saved on the way is signed now, or dropped.
    await deleteProgress(tx, signed)
    return signed
  })
}

export const [signDocument, signEmbedDocument] = defineSignerRoutes({
  operationIds: ['signDocument', 'signEmbedDocument'],
  method: 'POST',
  action: 'sign',
  summary: 'Sign the document',
  description:
    'Answers the signing form in its new state. The last signer’s signature starts the final PDF; the submission becomes `completed` once it is sealed and stored.',
  body: SignBody,
  response: SigningForm,
  bodyLimit: LIMITS.signBodyBytes,
  errors: [
    'invalid_field_value',
    'missing_required_fields',
    'not_your_turn',
    'submitter_already_finalized',
    'submission_not_active',
    'email_2fa_required',
  ],
  handler: async ({ body, ip, userAgent }, signer, deps) => {
    const signed = await sign(deps, signer, { ip, userAgent: userAgent ?? null, via: signer.via }, body)
    return signingForm(deps, signed, signer.sessions, signer.member)
  },
})
