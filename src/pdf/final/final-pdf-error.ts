// A reason a final PDF cannot be made, worded for the API client: finalization_error shows the
// message as it is. Any other error's message is internal (a library's words, a stack's cause): the
// client reads a general sentence and the log keeps the message (finalizer-child.ts causeOf).
export class FinalPdfError extends Error {
  override readonly name = 'FinalPdfError'
  /** `detail`: the internal cause behind the sentence, for the log. */
  readonly detail?: string
  constructor(message: string, detail?: string) {
    super(message)
    this.detail = detail
  }
}
