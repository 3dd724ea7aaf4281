// verify_pdf (docs/mcp.md#tools): POST /v1/verify with the PDF as base64 — the API's own JSON form.
// No URL form: the service would then fetch whatever address an agent was handed; an agent downloads
// a file with its own tools (a signed_pdf_url needs no key) and passes the bytes.
import { Type } from 'typebox'
import { Id, Nullable, Timestamp } from '../http/common-schemas.ts'
import { VERIFICATION_REASONS, type Verification } from '../verification/verify-pdf.ts'
import { okBody } from './api-caller.ts'
import { defineTool } from './define-tool.ts'

/** One of `values` or null: the enum lists null too, so a client validating the result accepts it. */
function NullableEnum<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null] })
}

export const verifyPdfTool = defineTool({
  name: 'verify_pdf',
  title: 'Verify a PDF',
  description:
    'Whether a PDF is, byte for byte, a signed final PDF or audit trail this Paraph sealed for this account (valid: true, with its submission_id), or not and why (reason: not_a_pdf, not_sealed, sealed_elsewhere, altered). Give the file base64-encoded; over MCP at most about 37 MB of PDF.',
  input: Type.Object(
    { pdf_base64: Type.String({ minLength: 1, description: 'The PDF file, base64-encoded' }) },
    { additionalProperties: false },
  ),
  output: Type.Object({
    valid: Type.Boolean(),
    submission_id: Nullable(Id('sub')),
    document: NullableEnum(['final', 'audit_trail'] as const),
    sha256: Type.String(),
    sealed_at: Nullable(Timestamp),
    reason: NullableEnum(VERIFICATION_REASONS),
    message: Type.String(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, api) {
    const v = okBody<Verification>(
      await api.call('verify_pdf', { method: 'POST', path: '/v1/verify', body: { pdf: args.pdf_base64 } }),
    )
    return {
      valid: v.valid,
      submission_id: v.submission_id,
      document: v.document,
      sha256: v.sha256,
      sealed_at: v.sealed_at,
      reason: v.reason,
      message: v.message,
    }
  },
})
