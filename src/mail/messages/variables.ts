// The variables a sender may write in `message.subject` and `message.body` (docs/api.md#variables),
// one syntax: `{{group.name}}`, spaces inside the braces allowed. Creation refuses any `{{…}}` that
// names none of them (creation-rules.ts), so a typo is a 422 at once, never a mail that shows
// `{{submiter.name}}` to a signer. Pure.

/** Every variable, with what it becomes: docs/api.md and the OpenAPI descriptions read this table. */
export const MAIL_VARIABLES = {
  'submitter.name': "the signer's name, or their e-mail address when no name was given",
  'submitter.email': "the signer's e-mail address",
  'submitter.signing_url': "the signer's signing link (a link in the HTML part)",
  'document.name': "the template's name (for an inline document, the first document's name)",
  'submission.id': 'the submission id (`sub_…`)',
  'submission.expires_at':
    'when the link expires, e.g. `23 November 2026 at 10:00 UTC` (`23 novembre 2026 à 10:00 UTC` with `MAIL_LANGUAGE=fr`; empty without `expires_at`)',
} as const

export type MailVariable = keyof typeof MAIL_VARIABLES

const NAMES = Object.keys(MAIL_VARIABLES) as MailVariable[]
const TOKEN = /\{\{([^{}]*)\}\}/g

function isVariable(name: string): name is MailVariable {
  return (NAMES as string[]).includes(name)
}

/** The `{{…}}` of a text that name no variable, as written, in order of appearance. */
export function unknownVariables(template: string): string[] {
  return [...template.matchAll(TOKEN)].filter((m) => !isVariable(m[1]!.trim())).map((m) => m[0])
}

/** `{{submitter.name}}, {{submitter.email}}, …` for messages and descriptions. */
export function variableList(): string {
  return NAMES.map((n) => `{{${n}}}`).join(', ')
}

/** The OpenAPI and docs/api.md wording: each variable and what it becomes. */
export function variablesDescription(): string {
  return NAMES.map((n) => `\`{{${n}}}\` ${MAIL_VARIABLES[n]}`).join('; ')
}

/**
 * The template with each variable replaced by `value(name)` and each piece of text between them
 * passed through `literal` (HTML escaping for the HTML part). A `{{…}}` that names no variable is
 * kept as written (creation refused those; messages queued before a variable was renamed still go).
 */
export function fillVariables(
  template: string,
  value: (name: MailVariable) => string,
  literal: (text: string) => string = (text) => text,
): string {
  let out = ''
  let from = 0
  for (const match of template.matchAll(TOKEN)) {
    const name = match[1]!.trim()
    const end = match.index + match[0].length
    out += literal(template.slice(from, isVariable(name) ? match.index : end))
    if (isVariable(name)) out += value(name)
    from = end
  }
  return out + literal(template.slice(from))
}
