// The JSON behind the signer's page (`GET …/form` in docs/api.md#the-signers-form), for a signer
// found by the slug of their signing URL or by their embed token.
import { type Static, Type } from 'typebox'
import type { GroupMembersTable, SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { StoredDocument } from '../documents/document-model.ts'
import { downloadUrl, FILE_URL_TTL_MS, pdfName, signedPdfName } from '../documents/file-urls.ts'
import { findProgress } from '../documents/signing-progress-store.ts'
import { Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { CONSENT_TEXT } from '../submissions/consent.ts'
import { memberKeyOf } from '../submissions/signer-groups.ts'
import { documentNameOf } from '../submissions/signing-requests.ts'
import { issueCurrentPdfGrant } from './current-pdf-grant.ts'
import { hasVerifiedSession } from './email-code-session.ts'
import { formValues } from './form-values.ts'
import { hasEnded, SIGNER_STATES } from './signer-state.ts'
import { signerView } from './signer-view.ts'
import { visibleValues } from './visible-values.ts'

export const SigningForm = Type.Object(
  {
    submitter: Type.Object({
      id: Type.String(),
      email: Type.String(),
      name: Nullable(Type.String()),
      role: Type.String(),
      status: Type.String(),
    }),
    submission: Type.Object({
      id: Type.String(),
      status: Type.String(),
      expires_at: Nullable(Timestamp),
      name: Nullable(
        Type.String({
          description:
            "What the signing request calls the document: the template's name (an inline submission's is its first document's). Null once the submission is cancelled, expired or declined",
        }),
      ),
      preview: Type.Boolean({
        description:
          'True for a copy made by the console editor\'s "preview as a signer" (docs/console.md#preview-as-a-signer): a test-environment submission that sends nothing; the page says so',
      }),
      message: Nullable(
        Type.Object(
          { subject: Nullable(Type.String()), body: Nullable(Type.String()) },
          {
            description:
              "The sender's `message` as given at creation, its `{{variables}}` unfilled (the page fills them, as text, never HTML). Null when the sender wrote none, and withheld (null) like `documents`",
          },
        ),
      ),
    }),
    state: StringEnum(SIGNER_STATES),
    documents: Type.Array(
      Type.Object({
        name: Type.String(),
        pdf_url: Type.String({ description: 'Signed URL, valid 1 hour' }),
        pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number() })),
      }),
      {
        description:
          'Withheld (empty) for a signer asked for an e-mail code until the request presents their verified session, whatever the state; empty once the submission is cancelled, expired or declined (the link reveals nothing more)',
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
          description:
            "The signer's own value, or one already entered by a signer who signed (or was pre-signed), or set by the sender in a read-only field; a signature or initials of another signer is the signed URL of its PNG (valid 1 hour); null otherwise",
        }),
      }),
      { description: 'Withheld (empty) like `documents`' },
    ),
    redirect_url: Nullable(
      Type.String({ description: 'Null once the submission is cancelled, expired or declined' }),
    ),
    consent_text: Type.String({
      description: 'What signing means, shown above the sign button and quoted in the audit trail',
    }),
    signed_pdf_url: Nullable(
      Type.String({
        description:
          'The sealed final PDF (signed URL, valid 1 hour) once `state` is `completed`; withheld (null) like `documents`',
      }),
    ),
    current_pdf_url: Nullable(
      Type.String({
        description:
          "The document with every value entered so far stamped on it (not sealed): to read before signing, and the signer's own copy right after they signed. Valid 1 hour; null while withheld (e-mail code not verified) or once the submission is cancelled, expired or declined",
      }),
    ),
    signed_by: Nullable(
      Type.Object(
        {
          name: Type.String({
            description: 'The name of the member who signed, or their e-mail address when they have none',
          }),
          signed_at: Timestamp,
        },
        {
          description:
            'For `signed_by_other` only (docs/api.md#signer-groups): who of the group signed for the role, and when — all such a link reveals. Null in every other state',
        },
      ),
    ),
    progress: Nullable(
      Type.Object(
        {
          values: Type.Record(
            Type.String(),
            Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'] }),
            { description: 'Field name → value, as saved by `PATCH …/progress` (images as PNG data URLs)' },
          ),
          saved_at: Timestamp,
        },
        {
          description:
            "What this signer filled in and saved without signing yet (docs/api.md#saving-progress), for the page to resume; this signer's only. Null when nothing is saved, and withheld (null) like `documents`",
        },
      ),
    ),
  },
  { title: 'SigningForm' },
)
export type SigningForm = Static<typeof SigningForm>

/**
 * The form of `submitter` (of `member` of a signer group, for a member's link) as the request
 * presenting `sessions` may see it.
 */
export async function signingForm(
  deps: Deps,
  submitter: SubmittersTable,
  sessions: readonly string[],
  member: GroupMembersTable | null = null,
): Promise<SigningForm> {
  const view = await signerView(deps, submitter, member, (me) => hasVerifiedSession(deps, sessions, me))
  const { submission, template, everyone, state, verified, me } = view
  // docs/signing.md#when-a-request-is-taken-back: an ended submission's link reveals nothing more
  // (nor does a group member's once another member signed).
  const ended = hasEnded(state)
  // Whatever the state: a link alone never shows a guarded signer's document, even once it ended.
  const withheld = ended || (me.require_email_2fa === 1 && !verified)
  // A file URL given before the submission ended stays valid until it expires
  // (1 hour): refusing it sooner would cost a database read per file, and an S3 presigned URL cannot
  // be taken back at all. What must die at once is read through Paraph: the form, page images and
  // the document as it stands (get-current-pdf.ts).
  const expiresAt = new Date(deps.clock.now().getTime() + FILE_URL_TTL_MS)
  const visible = withheld ? [] : visibleValues(template.fields, me, everyone)
  const values = await formValues(deps, visible, expiresAt)
  return {
    submitter: { id: me.id, email: me.email, name: me.name, role: me.role, status: me.status },
    submission: {
      id: submission.id,
      status: submission.status,
      expires_at: submission.expires_at,
      name: ended ? null : await documentNameOf(deps.db, submission),
      preview: submission.preview === 1,
      message: withheld ? null : messageOf(submission),
    },
    state,
    documents: withheld ? [] : await documentsOf(deps, template.documents, expiresAt),
    fields: withheld ? [] : template.fields.map((f) => ({ ...f, value: values.get(f.name) ?? null })),
    redirect_url: ended ? null : submission.redirect_url,
    consent_text: CONSENT_TEXT,
    signed_pdf_url:
      !withheld && state === 'completed' && submission.final_pdf_key
        ? await downloadUrl(deps, submission.final_pdf_key, signedPdfName(template.documents), expiresAt)
        : null,
    current_pdf_url: withheld ? null : currentPdfUrl(deps, me, view.member, expiresAt),
    signed_by: state === 'signed_by_other' ? signedBy(everyone.find((s) => s.id === me.id)) : null,
    progress: withheld ? null : await progressOf(deps, me, view.member),
  }
}

/** docs/api.md#signer-groups: the group's row carries the name and address of the member who signed. */
function signedBy(group: SubmittersTable | undefined): SigningForm['signed_by'] {
  if (!group?.signed_at) return null
  return { name: group.name || group.email, signed_at: group.signed_at }
}

async function progressOf(
  deps: Deps,
  submitter: SubmittersTable,
  member: GroupMembersTable | null,
): Promise<SigningForm['progress']> {
  const saved = await findProgress(deps.db, submitter, memberKeyOf(member))
  return saved ? { values: saved.values, saved_at: saved.updated_at } : null
}

/** The sender's own words, when they wrote any (docs/api.md#the-signers-form). */
function messageOf(submission: Pick<SubmissionsTable, 'message_subject' | 'message_body'>) {
  const { message_subject: subject, message_body: body } = submission
  return subject || body ? { subject: subject || null, body: body || null } : null
}

function documentsOf(deps: Deps, documents: StoredDocument[], expiresAt: Date) {
  return Promise.all(
    documents.map(async (d) => ({
      name: d.name,
      pdf_url: await downloadUrl(deps, d.blob_key, pdfName(d.name), expiresAt),
      pages: d.pages,
    })),
  )
}

/** The download of the document as it stands (get-current-pdf.ts), valid 1 hour. */
function currentPdfUrl(
  deps: Deps,
  submitter: SubmittersTable,
  member: GroupMembersTable | null,
  expiresAt: Date,
): string {
  const holder = { ...submitter, member_id: member?.id ?? null }
  const grant = issueCurrentPdfGrant(deps.keys.signerSession, holder, expiresAt)
  return `${deps.config.publicUrl}/files/current/${grant}`
}
