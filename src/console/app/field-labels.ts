// An API refusal in a person's words: the request field's path that a message begins with
// (`submitters[0].email: must be an e-mail address`, named again by the error's `param`) becomes
// what the console's forms call it ("Signer 1 › E-mail address: must be an e-mail address"). Pure:
// node's tests run it without a browser.
import type { EN } from './texts-en.ts'

type Texts = typeof EN

/** The words for a path's last part, by the API's field name; an unknown name is spelled out. */
function leafLabel(name: string, t: Texts): string {
  const known: Record<string, string> = {
    email: t.email,
    name: t.name,
    url: t.url,
    role: t.role,
    events: t.events,
    expires_at: t.expires,
    key_id: t.caller,
    request_id: t.request_id,
    delete_after_days: t.retention_days,
    applies_to: t.retention_applies_to,
    submission_ids: t.holds_ids,
    reason: t.holds_reason,
  }
  return known[name] ?? name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase())
}

/** The words for a list item: `submitters[0]` → "Signer 1". */
function itemLabel(list: string, index: number, t: Texts): string {
  const lists: Record<string, string> = {
    submitters: t.field_path_signer,
    documents: t.field_path_document,
    fields: t.field_path_field,
    areas: t.field_path_area,
    submission_ids: t.holds_ids_item,
  }
  const words = lists[list] ?? leafLabel(list, t)
  return `${words} ${index + 1}`
}

/** `submitters[0].email` → "Signer 1 › E-mail address"; `values.Amount` → "Amount". */
export function fieldLabel(param: string, t: Texts): string {
  const parts: string[] = []
  const segments = param.split('.')
  for (const [i, segment] of segments.entries()) {
    // A value a sender gives is keyed by the field's own name: that name is the label.
    if (i === 0 && segment === 'values' && segments.length > 1) {
      parts.push(segments.slice(1).join('.'))
      break
    }
    const item = /^([A-Za-z_]+)\[(\d+)\]$/.exec(segment)
    parts.push(item ? itemLabel(item[1]!, Number(item[2]), t) : leafLabel(segment, t))
  }
  return parts.join(' › ')
}

/**
 * A schema's `must match pattern "…"` in words: an id's pattern (`^(key|mem)_[0-9A-Za-z]{24}$`) by
 * the prefixes it begins with, any other as "not in the expected form" — a person never reads a regex.
 */
function patternWords(rest: string, t: Texts): string {
  const pattern = /^must match pattern "(.*)"\.?$/.exec(rest)?.[1]
  if (pattern === undefined) return rest
  const prefixes = /^\^\(?([a-z]+(?:\|[a-z]+)*)\)?_/.exec(pattern)?.[1]?.split('|')
  if (!prefixes) return t.error_pattern
  return t.error_pattern_id.replace('{prefixes}', prefixes.map((p) => `${p}_`).join(t.error_pattern_or))
}

/** The message with the path it begins with put in words; other messages as the API wrote them. */
export function humanMessage(error: { message: string; param: string | null }, t: Texts): string {
  const { message, param } = error
  if (param) {
    for (const prefix of [`${param}: `, `${param} `]) {
      if (message.startsWith(prefix)) {
        return quoted(`${fieldLabel(param, t)}: ${patternWords(message.slice(prefix.length), t)}`)
      }
    }
  }
  return quoted(message)
}

/** The API's messages mark code with backticks (Markdown); on a form they read as quotes. */
function quoted(text: string): string {
  return text.replace(/`([^`]+)`/g, '“$1”')
}
