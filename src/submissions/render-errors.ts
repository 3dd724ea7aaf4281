// render/ throws RenderError with a reason and knows no HTTP; every route that renders (from_html,
// from_docx, the console's drafts) answers with the API's code for it (docs/api.md#errors), the
// message unchanged. An account that fills its own share of the renderer is refused 429
// `rate_limit_exceeded` (docs/api.md#rate-limits): a 5xx means the service failed, not a limit the
// caller reached.
import { ApiError, type ErrorCode } from '../errors.ts'
import { LIMITS } from '../limits.ts'
import { RenderError, type RenderReason } from '../render/render-error.ts'

/** What the rendering routes' OpenAPI descriptions say of the account's render limit. */
export const RENDER_LIMIT_NOTE = `One account renders at most ${LIMITS.htmlRenders} documents at once, with ${LIMITS.htmlRenderQueuePerAccount} more waiting: beyond, or after waiting behind its own renders, 429 \`rate_limit_exceeded\` with \`Retry-After\` (the account's concurrent-render limit, not a failure of the service).`

const CODES: Record<RenderReason, ErrorCode> = {
  refused_html: 'invalid_request',
  bad_tag: 'invalid_template_tag',
  refused_docx: 'invalid_docx',
  docx_failed: 'docx_convert_failed',
  render_failed: 'html_render_failed',
  busy: 'html_render_failed',
  account_limit: 'rate_limit_exceeded',
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
