// POST /v1/verify — docs/api.md#verification: is this PDF, byte for byte, a final or an audit trail
// this instance sealed for the caller's account and environment? A hash and a byte scan
// (seal-scan.ts): the file is never opened by a PDF library.
import { createHash } from 'node:crypto'
import { type Static, Type } from 'typebox'
import { fieldError } from '../errors.ts'
import { Id, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { LIMITS } from '../limits.ts'
import { scanSeals } from './seal-scan.ts'
import { findSealedFile } from './sealed-file-store.ts'
import { sealingCertificate } from './sealing-certificate.ts'

export const VerifyPdfBody = Type.Object(
  // No minLength: Ajv would count the characters of a 50 MB string; the handler refuses an empty one.
  { pdf: Type.String({ description: 'The PDF, base64-encoded.' }) },
  { additionalProperties: false, title: 'VerifyPdfBody' },
)

export const VERIFICATION_REASONS = ['not_a_pdf', 'not_sealed', 'sealed_elsewhere', 'altered'] as const
export type VerificationReason = (typeof VERIFICATION_REASONS)[number]

export const Verification = Type.Object(
  {
    object: Type.Literal('verification'),
    valid: Type.Boolean(),
    submission_id: Nullable(Id('sub')),
    document: Nullable(StringEnum(['final', 'audit_trail'] as const)),
    sha256: Type.String({ description: 'SHA-256 (hex) of the bytes received.' }),
    sealed_at: Nullable(Timestamp),
    signature_level: Nullable(
      StringEnum(['ses'] as const, { description: 'Simple electronic signature (eIDAS).' }),
    ),
    reason: Nullable(StringEnum(VERIFICATION_REASONS)),
    message: Type.String(),
  },
  { title: 'Verification' },
)
export type Verification = Static<typeof Verification>

const MESSAGES: Record<VerificationReason, string> = {
  not_a_pdf: 'This file is not a PDF.',
  not_sealed:
    'This PDF carries no electronic seal or signature: it is not a document sealed by this service.',
  sealed_elsewhere:
    'This PDF is signed, but not with this service’s seal: it was sealed by another installation or another tool.',
  altered:
    'This PDF carries this service’s seal but is not a file it sealed for your account: it was changed or saved again by another program after sealing, or belongs to another account.',
}

export const verifyPdf = defineRoute({
  operationId: 'verifyPdf',
  method: 'POST',
  url: '/v1/verify',
  summary: 'Verify a PDF',
  description:
    'Whether the PDF is, byte for byte, a final PDF or an audit trail this instance sealed for your account and environment (after a purge too). The body is the PDF itself (`Content-Type: application/pdf`) or JSON `{"pdf": "<base64>"}`, at most 50 MiB. A file that is not is `valid: false` with a `reason`: `not_a_pdf`, `not_sealed`, `sealed_elsewhere`, `altered`.',
  tag: 'Verification',
  bodyLimit: LIMITS.pdfBytes,
  binaryBody: {
    type: 'application/pdf',
    description: 'The PDF itself.',
    toBody: (bytes) => (bytes.length === 0 ? {} : { pdf: bytes.toString('base64') }),
  },
  schema: { body: VerifyPdfBody, response: { 200: Verification } },
  errors: [],
  handler: async ({ body, scope }, deps) => {
    const pdf = Buffer.from(body.pdf, 'base64')
    if (pdf.length === 0) throw fieldError('invalid_request', 'pdf', 'must be the PDF in base64, not empty.')
    const sha256 = createHash('sha256').update(pdf).digest('hex')
    const sealed = await findSealedFile(deps.db, scope, sha256)
    if (sealed) {
      return {
        object: 'verification' as const,
        valid: true,
        submission_id: sealed.submissionId,
        document: sealed.document,
        sha256,
        sealed_at: sealed.sealedAt,
        signature_level: 'ses' as const,
        reason: null,
        message: `This PDF is the ${sealed.document === 'final' ? 'final document' : 'audit trail'} of submission ${sealed.submissionId}, unchanged since it was sealed.`,
      }
    }
    const scan = scanSeals(pdf, await sealingCertificate(deps))
    const reason: VerificationReason = scan === 'sealed_here' ? 'altered' : scan
    return {
      object: 'verification' as const,
      valid: false,
      submission_id: null,
      document: null,
      sha256,
      sealed_at: null,
      signature_level: null,
      reason,
      message: MESSAGES[reason],
    }
  },
})
