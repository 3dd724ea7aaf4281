// The JSON behind the signer's page (operations.md §3 `GET …/form`), for a signer found by the slug
// of their signing URL or by their embed token.
import { type Static, Type } from 'typebox'
import type { SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { downloadUrl, FILE_URL_TTL_MS, pdfName, signedPdfName } from '../documents/file-urls.ts'
import { parseStoredValues, readableValues } from '../documents/stored-values.ts'
import { ApiError } from '../errors.ts'
import { Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { own } from '../lib/own.ts'
import { findSubmissionOfSubmitter, submittersOf } from '../submissions/submission-store.ts'
import { findTemplate } from '../templates/template-store.ts'
import { CONSENT_TEXT } from './consent.ts'
import { hasVerifiedSession } from './signer-session.ts'
import { SIGNER_STATES, signerState } from './signer-state.ts'

export const SigningForm = Type.Object(
  {
    submitter: Type.Object({
      id: Type.String(),
      email: Type.String(),
      name: Nullable(Type.String()),
      role: Type.String(),
      status: Type.String(),
    }),
    submission: Type.Object({ id: Type.String(), status: Type.String(), expires_at: Nullable(Timestamp) }),
    state: StringEnum(SIGNER_STATES),
    documents: Type.Array(
      Type.Object({
        name: Type.String(),
        pdf_url: Type.String({ description: 'Signed URL, valid 1 hour' }),
        pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() })),
      }),
      {
        description:
          'Withheld (empty) for a signer asked for an e-mail code until the request presents their verified session, whatever the state',
      },
    ),
    fields: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.String(),
        role: Type.String(),
        required: Type.Boolean(),
        readonly: Type.Boolean(),
        areas: Type.Array(
          Type.Object({
            document: Type.Integer({ description: 'Index in `documents`' }),
            page: Type.Integer({ description: '1-indexed' }),
            x: Type.Number({ description: 'Fractions of the page, origin top-left' }),
            y: Type.Number(),
            w: Type.Number(),
            h: Type.Number(),
          }),
        ),
        options: Nullable(Type.Array(Type.String())),
        value: Type.Unsafe<string | number | boolean | null>({
          type: ['string', 'number', 'boolean', 'null'],
        }),
      }),
      { description: 'Withheld (empty) like `documents`' },
    ),
    redirect_url: Nullable(Type.String()),
    consent_text: Type.String({
      description: 'What signing means, shown above the sign button and quoted in the audit trail',
    }),
    signed_pdf_url: Nullable(
      Type.String({
        description: 'The sealed final PDF (signed URL, valid 1 hour) once `state` is `completed`',
      }),
    ),
  },
  { title: 'SigningForm' },
)
export type SigningForm = Static<typeof SigningForm>

/** The form of `submitter` as the request presenting `sessions` may see it. */
export async function signingForm(
  deps: Deps,
  submitter: SubmittersTable,
  sessions: readonly string[],
): Promise<SigningForm> {
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const submission = await findSubmissionOfSubmitter(deps.db, submitter)
  const template = submission && (await findTemplate(deps.db, scope, submission.template_id))
  if (!submission || !template)
    throw new ApiError('internal_inconsistency', 'The signing link points to a missing submission.')
  const now = deps.clock.now()
  const everyone = await submittersOf(deps.db, scope, [submission.id])
  const verified = hasVerifiedSession(deps, sessions, submitter)
  const state = signerState(submission, submitter, everyone, now, verified)
  // Whatever the state: a link alone never shows a guarded signer's document, even once it ended.
  const withheld = submitter.require_email_2fa === 1 && !verified
  const expiresAt = new Date(now.getTime() + FILE_URL_TTL_MS)
  const values = await readableValues(deps, parseStoredValues(submitter.values), expiresAt)
  return {
    submitter: {
      id: submitter.id,
      email: submitter.email,
      name: submitter.name,
      role: submitter.role,
      status: submitter.status,
    },
    submission: { id: submission.id, status: submission.status, expires_at: submission.expires_at },
    state,
    documents: withheld
      ? []
      : await Promise.all(
          template.documents.map(async (d) => ({
            name: d.name,
            pdf_url: await downloadUrl(deps, d.blob_key, pdfName(d.name), expiresAt),
            pages: d.pages,
          })),
        ),
    fields: withheld
      ? []
      : template.fields.map((f) => ({
          ...f,
          value: f.role === submitter.role ? (own(values, f.name) ?? null) : null,
        })),
    redirect_url: submission.redirect_url,
    consent_text: CONSENT_TEXT,
    signed_pdf_url:
      state === 'completed' && submission.final_pdf_key
        ? await downloadUrl(deps, submission.final_pdf_key, signedPdfName(template.documents), expiresAt)
        : null,
  }
}
