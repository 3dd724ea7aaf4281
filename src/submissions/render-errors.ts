// render/ throws RenderError with a reason and knows no HTTP; every route that renders (from_html,
// from_docx, the console's drafts) answers with the API's code for it (docs/api.md#errors), the
// message unchanged.
import { ApiError, type ErrorCode } from '../errors.ts'
import { RenderError, type RenderReason } from '../render/render-error.ts'

const CODES: Record<RenderReason, ErrorCode> = {
  refused_html: 'invalid_request',
  bad_tag: 'invalid_template_tag',
  refused_docx: 'invalid_docx',
  docx_failed: 'docx_convert_failed',
  render_failed: 'html_render_failed',
  busy: 'html_render_failed',
}

/** A RenderError as the ApiError the client gets; any other error as it is. */
export function apiErrorOf(error: unknown): unknown {
  if (!(error instanceof RenderError)) return error
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) }
  return new ApiError(CODES[error.reason], error.message, headers)
}

/** `work`, its RenderError turned into the ApiError the client gets. */
export async function rendering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw apiErrorOf(error)
  }
}
