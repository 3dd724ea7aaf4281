// Submission ids as a person pastes them into "Place a legal hold" (docs/console.md#legal-holds): one
// per line, or separated by commas, semicolons or spaces, from a spreadsheet column or a mail. Pure:
// node's tests run it without a browser.

/** The ids in what was pasted, in their order, each once; the API judges whether each is one. */
export function submissionIdsIn(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter((id) => id !== ''))]
}
