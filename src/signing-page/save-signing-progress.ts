// PATCH /s/{slug}/progress and PATCH /embed/{jwt}/progress — docs/api.md#saving-progress: the page
// saves what the signer has filled in as they go, so a reload or another device resumes there. Only
// the fields that changed travel (a signature image once, not with every keystroke elsewhere); a
// null empties a field. Checked like `sign`'s values but nothing is required; kept for this signer
// alone, never counted as signed, and deleted when they sign or decline and when the submission ends.
// Under the submission's lock, like every signer act: a save that arrives after the signature (a
// page closing) finds the signer finished and is refused, never bringing the progress back.
import { Type } from 'typebox'
import { encodeProgress, mergeProgress } from '../documents/signing-progress.ts'
import { findProgress, saveProgress } from '../documents/signing-progress-store.ts'
import { ApiError } from '../errors.ts'
import { Timestamp } from '../http/common-schemas.ts'
import { toIso } from '../lib/clock.ts'
import { LIMITS } from '../limits.ts'
import { memberKeyOf } from '../submissions/signer-groups.ts'
import { findTemplateLayout } from '../templates/template-store.ts'
import { checkProgressValues } from './sign-values.ts'
import { openSession, refusalOf } from './signer-act-lock.ts'
import { defineSignerRoutes } from './signer-routes.ts'

const ProgressBody = Type.Object(
  {
    values: Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
      {
        maxProperties: 500,
        description:
          'Field name → value, only the fields that changed: each as `sign` takes it, or null for a field emptied',
      },
    ),
  },
  { additionalProperties: false, title: 'SigningProgressRequest' },
)

const SavedProgress = Type.Object(
  {
    object: Type.Literal('signing_progress'),
    fields: Type.Array(Type.String(), { description: 'Every field saved so far, after this change' }),
    saved_at: Timestamp,
  },
  { title: 'SigningProgress' },
)

const tooLarge = () =>
  new ApiError(
    'progress_too_large',
    `What you filled in would take more than ${LIMITS.progressBytes / 1024 / 1024} MiB to keep; it stays on this screen until you sign.`,
  )

export const [saveSigningProgress, saveEmbedSigningProgress] = defineSignerRoutes({
  operationIds: ['saveSigningProgress', 'saveEmbedSigningProgress'],
  method: 'PATCH',
  action: 'progress',
  summary: 'Save what the signer has filled in so far',
  description:
    'Merges the given values into the signer’s saved progress (null removes a field); `GET …/form` gives it back as `progress`. Never counted as signed, never shown to anyone else; deleted when the signer signs or declines and when the submission ends.',
  body: ProgressBody,
  response: SavedProgress,
  bodyLimit: LIMITS.progressBodyBytes,
  errors: [
    'invalid_field_value',
    'progress_too_large',
    'not_your_turn',
    'submitter_already_finalized',
    'submission_not_active',
    'email_2fa_required',
  ],
  handler: async ({ body }, signer, deps) =>
    deps.db.transaction().execute(async (tx) => {
      const session = await openSession(tx, deps, signer)
      const refusal = refusalOf(session, 'progress')
      if (refusal) throw refusal
      const { submitter, submission } = session
      const scope = { accountId: submitter.account_id, environment: submitter.environment }
      const template = await findTemplateLayout(tx, scope, submission.template_id)
      if (!template)
        throw new ApiError('internal_inconsistency', 'The document of this signing link is missing.')
      checkProgressValues(template.fields, submitter.role, body.values)
      // docs/api.md#signer-groups: each member of a group saves their own.
      const memberId = memberKeyOf(session.member)
      const values = mergeProgress((await findProgress(tx, submitter, memberId))?.values ?? {}, body.values)
      const encoded = encodeProgress(values)
      if (Buffer.byteLength(encoded) > LIMITS.progressBytes) throw tooLarge()
      const at = toIso(deps.clock.now())
      await saveProgress(tx, submitter, memberId, { encoded, empty: Object.keys(values).length === 0, at })
      return { object: 'signing_progress' as const, fields: Object.keys(values), saved_at: at }
    }),
})
