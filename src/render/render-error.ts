// What render/ refuses or fails at. render/ turns HTML and DOCX into PDF and knows no HTTP: the
// capability that called it maps the reason to an API code and status (submissions/render-errors.ts),
// as pdf/ does for its own errors. Every message is fit to show the client.

export type RenderReason =
  /** The HTML is refused as a whole: nested too deep, too many elements, too many pages. */
  | 'refused_html'
  /** A malformed, unclosed or surplus {{tag}}. */
  | 'bad_tag'
  /** The DOCX is refused: not one, empty, a DTD, a tag outside the body, too large once converted. */
  | 'refused_docx'
  /** The DOCX converter failed, took too long or crashed. */
  | 'docx_failed'
  /** Chromium or the tag reader failed, took too long, crashed, or the renderer is shut down. */
  | 'render_failed'
  /** Every render slot is taken (and the queue full, or the wait over): a retry soon usually works. */
  | 'busy'
  /**
   * The caller's own account fills its share of the renderer (its renders at once and its waiting
   * places, or a wait spent behind its own renders): a limit it reached itself, not a failure.
   */
  | 'account_limit'

export class RenderError extends Error {
  readonly reason: RenderReason
  /** After how many seconds a retry likely finds a free slot (`busy` and `account_limit` only). */
  readonly retryAfterSeconds: number | undefined

  constructor(reason: RenderReason, message: string, retryAfterSeconds?: number) {
    super(message)
    this.name = 'RenderError'
    this.reason = reason
    this.retryAfterSeconds = retryAfterSeconds
  }
}
