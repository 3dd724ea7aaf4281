// What the audit trail of a submission holds (docs/security.md#audit-trail):
// rendered as the audit PDF (audit-log-pdf.ts) and served as GET /v1/submissions/{id}/audit_log.json.
// Strings here are free text or ids; enumerations owned by capabilities (event types, field types,
// statuses) are described, not imported, as pdf/ imports no capability.
import { type Static, type TSchema, Type } from 'typebox'
import { type IdPrefix, idPattern } from '../../lib/ids.ts'
import { completionSentence, verificationSentence } from './audit-sentences.ts'

/** The legal level, as the footer of the final PDF states it (docs/api.md#completion). */
export const SES_LEGAL_LEVEL = 'Simple electronic signature (SES) under Regulation (EU) No 910/2014 (eIDAS)'

const Id = (prefix: IdPrefix, description: string) =>
  Type.String({
    pattern: idPattern(prefix),
    description: `${description}: \`${prefix}_\` + 24 base62 characters`,
  })

const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; ISO 8601, UTC, with milliseconds` })

const Sha256 = (description: string) =>
  Type.String({ pattern: '^[0-9a-f]{64}$', description: `${description}; SHA-256, 64 lowercase hex digits` })

function OrNull<T extends TSchema>(schema: T, description: string) {
  return Type.Union([schema, Type.Null()], { description })
}

export const AuditImageValue = Type.Object(
  {
    sha256: Sha256('Of the PNG as the signer sent it'),
    width: Type.Integer({ minimum: 0, description: 'Width in pixels' }),
    height: Type.Integer({ minimum: 0, description: 'Height in pixels' }),
  },
  { description: 'A signature or initials drawing, identified by its hash rather than its bytes' },
)
export type AuditImageValue = Static<typeof AuditImageValue>

export const AuditFieldValue = Type.Object({
  name: Type.String({ description: 'Field name' }),
  type: Type.String({
    description: 'Field type: signature, initials, date, text, checkbox, number, radio or select',
  }),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), AuditImageValue], {
    description: 'The value: an image as its hash and size, a date as YYYY-MM-DD; null when left empty',
  }),
})
export type AuditFieldValue = Static<typeof AuditFieldValue>

export const AuditEarlierSignature = Type.Object(
  {
    field: Type.String({ description: "The signature field's full name" }),
    name: OrNull(Type.String(), "The signer's name as the signature gives it (/Name), when it does"),
    signed_at: OrNull(Type.String(), 'The signing time the signature claims (/M), ISO 8601 when it parses'),
    format: OrNull(Type.String(), 'The signature format (/SubFilter), e.g. adbe.pkcs7.detached'),
  },
  { description: 'A signature the document already carried when it was sent' },
)
export type AuditEarlierSignature = Static<typeof AuditEarlierSignature>

/** What the final PDF's making found in each document, added once it is made. */
export const AuditDocumentFacts = Type.Object({
  encrypted: Type.Boolean({
    description: 'The document was encrypted with an empty user password; it is signed decrypted',
  }),
  repaired: Type.Boolean({ description: 'The document was damaged; it is signed as repaired' }),
  rewritten_sha256: OrNull(
    Sha256('Of the decrypted or repaired file that was signed in place of the document'),
    'Null when the document itself was signed: it is then the exact beginning of the final PDF (for the first document)',
  ),
  certification: OrNull(
    Type.Integer({ minimum: 1, maximum: 3 }),
    "The author's certification level (DocMDP: 2 form filling, 3 also annotations); null when not certified",
  ),
  signatures: Type.Array(AuditEarlierSignature, {
    description: 'Signatures the document carried when it was sent',
  }),
})
export type AuditDocumentFacts = Static<typeof AuditDocumentFacts>

export const AuditTimestamp = Type.Object(
  {
    authority: Type.String({ description: 'The time-stamping authority asked (TSA_URL)' }),
    time: Timestamp("The time the authority certified (the token's genTime)"),
  },
  { description: "The RFC 3161 time-stamp of the final PDF's seal (PAdES B-T)" },
)
export type AuditTimestamp = Static<typeof AuditTimestamp>

/** What the finalizer learnt while making the final PDF, added to the record with its hash. */
export interface FinalFacts {
  /** In the order of the documents. */
  documents: AuditDocumentFacts[]
  /** What merging several documents could not keep, one sentence each. */
  notes: string[]
  timestamp: AuditTimestamp | null
}

/** A member of a signer group (docs/api.md#signer-groups): any one of them signs for the role. */
export const AuditGroupMember = Type.Object({
  id: Id('grm', 'Member id'),
  email: Type.String({ description: 'E-mail address the member was asked at' }),
  name: OrNull(Type.String(), 'Name given by the sender'),
  status: Type.String({
    description:
      'signed (this member signed for the role), superseded (another member signed), declined (this member declined for the role) or pending',
  }),
  signed_at: OrNull(Timestamp('Signature'), 'Null unless this member signed'),
  email_2fa_verified_at: OrNull(
    Timestamp('When the member last entered the right e-mailed one-time code'),
    'Null when no code was asked for or entered',
  ),
})
export type AuditGroupMember = Static<typeof AuditGroupMember>

export const AuditSubmitter = Type.Object({
  id: Id('sbm', 'Submitter id'),
  role: Type.String({ description: 'Role in the document' }),
  email: Type.String({ description: 'E-mail address the request was addressed to' }),
  name: OrNull(Type.String(), 'Name given by the sender'),
  delivery: Type.Union([Type.Literal('email'), Type.Literal('link'), Type.Literal('embed')], {
    description:
      'How the signing request reached the signer: e-mail, a signing link the sender passed on, or an embedded form',
  }),
  email_2fa_verified_at: OrNull(
    Timestamp('When the signer last entered the right e-mailed one-time code'),
    'Null when no code was asked for or entered',
  ),
  status: Type.String({ description: 'Submitter status: pending, opened, signed, declined or pre_signed' }),
  opened_at: OrNull(Timestamp('First opening of the document'), 'Null if never opened'),
  opened_ip: OrNull(Type.String(), 'IP address of the first opening'),
  opened_user_agent: OrNull(Type.String(), 'User agent of the first opening'),
  signed_at: OrNull(Timestamp('Signature'), 'Null unless signed or pre-signed'),
  signed_ip: OrNull(Type.String(), 'IP address of the signing request; null when pre-signed by the sender'),
  signed_user_agent: OrNull(Type.String(), 'User agent of the signing request'),
  declined_at: OrNull(Timestamp('Refusal'), 'Null unless declined'),
  declined_ip: OrNull(Type.String(), 'IP address of the refusal'),
  declined_user_agent: OrNull(Type.String(), 'User agent of the refusal'),
  decline_reason: OrNull(Type.String(), 'Reason given when declining'),
  consent_text: OrNull(Type.String(), 'The consent wording shown to the signer and accepted by signing'),
  consent_language: Type.Optional(
    OrNull(
      Type.String({ description: 'en, fr, de or es' }),
      "The signing page's language when the signer signed or declined, in which consent_text is quoted; null when the page did not say (acts recorded before issue #21): consent_text is then the English wording",
    ),
  ),
  values: Type.Array(AuditFieldValue, { description: "The signer's fields and their values" }),
  members: Type.Optional(
    Type.Array(AuditGroupMember, {
      description:
        'Only for a signer group: its members in order, each asked with a link of their own, and which of them signed (`email`, `name` and the acts above are that member’s). The members at sending are named by the `submission.created` event, any later change by `submitter.updated`',
    }),
  ),
})
export type AuditSubmitter = Static<typeof AuditSubmitter>

export const AuditEvent = Type.Object({
  id: Id('evt', 'Event id'),
  type: Type.String({
    description: 'Event type (docs/api.md#events), e.g. submission.created, submitter.signed',
  }),
  created_at: Timestamp('When it happened'),
  submitter_id: OrNull(Id('sbm', 'Submitter id'), 'The submitter who acted, if any'),
  ip: OrNull(Type.String(), 'IP address of the request that caused it, when a person acted'),
  user_agent: OrNull(Type.String(), 'User agent of that request'),
  details: OrNull(
    Type.String(),
    'What the event changed beyond a status: for submitter.updated, the fields the sender changed, with the old and new e-mail address; for submitter.reminded, which reminder it was and whether the sender asked for it or the policy sent it',
  ),
  description: Type.Optional(
    Type.String({
      description:
        'The event in a sentence, as the audit PDF states it: who acted (name and e-mail), from which IP address and how, e.g. "Signed by Alice Martin (alice@example.com) from 203.0.113.7 through the signing link."',
    }),
  ),
})
export type AuditEvent = Static<typeof AuditEvent>

export const AuditRecord = Type.Object(
  {
    submission_id: Id('sub', 'Submission id'),
    legal_level: Type.String({ description: SES_LEGAL_LEVEL, examples: [SES_LEGAL_LEVEL] }),
    status: Type.String({
      description: 'Submission status when the trail was drawn up (docs/api.md#statuses-and-moves)',
    }),
    created_at: Timestamp('Creation of the submission'),
    completed_at: OrNull(Timestamp('Last signature'), 'Null unless completed'),
    documents: Type.Array(
      Type.Intersect([
        Type.Object({
          name: Type.String({ description: 'Document name' }),
          page_count: Type.Integer({ minimum: 1 }),
          sha256: Sha256('Of the document as the sender sent it'),
        }),
        Type.Partial(AuditDocumentFacts),
      ]),
      { description: 'The documents in order, as sent' },
    ),
    final_pdf: OrNull(
      Type.Object({
        sha256: Sha256('Of the sealed final PDF: equal to the SHA-256 of the downloaded file'),
        page_count: Type.Integer({ minimum: 1 }),
        timestamp: Type.Optional(OrNull(AuditTimestamp, 'Null when no time-stamping authority is set')),
        notes: Type.Optional(
          Type.Array(Type.String(), {
            description:
              'What merging several documents into one PDF could not keep (a signature in a later document, its tags…), one sentence each',
          }),
        ),
      }),
      'The signed PDF; null until the submission is completed',
    ),
    submitters: Type.Array(AuditSubmitter, { description: 'Signers in signing order' }),
    events: Type.Array(AuditEvent, { description: 'Every journal event of the submission, oldest first' }),
    completion: Type.Optional(
      OrNull(
        Type.String(),
        'The completion in a sentence, the last line of the audit PDF: when the last signer signed, that every signer signed, when Paraph sealed the final PDF (and the time-stamp); null until completed',
      ),
    ),
    verification: Type.Optional(
      OrNull(
        Type.String(),
        'How anyone can check the final PDF, in a sentence with its SHA-256; null until completed',
      ),
    ),
  },
  { title: 'AuditRecord' },
)
export type AuditRecord = Static<typeof AuditRecord>

/**
 * The record completed with the sealed final PDF's hash and what its making found. The final PDF
 * holds every page of every document, so its page count is theirs added up.
 */
export function withFinalPdf(record: AuditRecord, sha256: string, facts: FinalFacts): AuditRecord {
  const pageCount = record.documents.reduce((sum, d) => sum + d.page_count, 0)
  const completed: AuditRecord = {
    ...record,
    documents: record.documents.map((document, i) => ({ ...document, ...facts.documents[i] })),
    final_pdf: { sha256, page_count: pageCount, timestamp: facts.timestamp, notes: facts.notes },
  }
  // The closing sentences, in the JSON as the PDF prints them.
  return {
    ...completed,
    completion: completionSentence(completed),
    verification: verificationSentence(sha256),
  }
}
