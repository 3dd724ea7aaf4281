// The audit trail in words: each event as a sentence naming who acted, from
// where and how; the completion; how to verify the seal. One source for the audit PDF and its JSON
// twin, so both say the same thing. Event types are those of docs/api.md#events, additions included
// (events/event-types.ts); pdf/ imports no capability, so they are spelt out here, and
// events/event-types.test.ts checks that each has its sentence.
import type { AuditEvent, AuditRecord, AuditSubmitter } from './audit-record.ts'

/** How a signer reached the page for an act: the signing link or the sender's embedded form. */
export type ActVia = 'link' | 'embed' | null

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' }

/** A language as the trail names it: `French (fr)`. */
export function languageName(code: string): string {
  return `${LANGUAGE_NAMES[code] ?? code} (${code})`
}

/** A signer as sentences name them: `Alice Martin (alice@example.com)`, or the address alone. */
export function signerName(signer: Pick<AuditSubmitter, 'name' | 'email'>): string {
  return signer.name ? `${signer.name} (${signer.email})` : signer.email
}

/** Who of a signer group acted, as the event's journal names them (docs/api.md#signer-groups). */
export interface ActingMember {
  name: string | null
  email: string
}

/** A signer group, for an event about the group rather than one member: its role and its people. */
export function groupName(signer: Pick<AuditSubmitter, 'role'>, members: ActingMember[]): string {
  return `the signer group for role “${signer.role}” (any one of ${members.map(signerName).join(', ')})`
}

/** Who an event names: the member who acted for a group, the group itself, or the signer. */
function whoOf(signer: AuditSubmitter | undefined, event: AuditEvent, member: ActingMember | null): string {
  if (!signer) return event.submitter_id ? `signer ${event.submitter_id}` : 'a signer'
  if (member) return `${signerName(member)} of the signer group for role “${signer.role}”`
  if (signer.members?.length) return groupName(signer, signer.members)
  return signerName(signer)
}

const HOW: Record<'link' | 'embed', string> = {
  link: ' through the signing link',
  embed: " in the form embedded in the sender's application",
}

type Sentence = (who: string, from: string, how: string) => string

// `who` is "a signer" when the event names none; `from` and `how` are empty or start with a space.
const SENTENCES: Record<string, Sentence> = {
  'submission.created': () => 'Submission created by the sender.',
  'submission.sent': () => 'Sent for signature: the signing request went out by e-mail.',
  'submission.viewed': (who, from) => `Viewed for the first time, by ${who}${from}.`,
  'submission.partially_signed': (who) => `Partially signed: ${who} signed; other signers remain.`,
  'submission.completed': () => 'Completed: every signer signed.',
  'submission.declined': (who, from) => `Declined by ${who}${from}; the submission ended.`,
  'submission.expired': () => 'Expired: the deadline passed before every signer signed.',
  'submission.cancelled': () => 'Cancelled by the sender.',
  'submission.purged': () => 'Purged: its documents and personal data were deleted.',
  'retention_policy.updated': () => "The account's retention policy changed.",
  'legal_hold.created': () => 'A legal hold was placed on this submission.',
  'legal_hold.released': () => 'A legal hold on this submission was released.',
  'erasure.completed': () => "A data subject's erasure request was answered.",
  'submitter.opened': (who, from, how) => `Opened by ${who}${from}${how}.`,
  'submitter.signed': (who, from, how) => `Signed by ${who}${from}${how}.`,
  'submitter.pre_signed': (who) =>
    `Signed for ${who} by the sender when the submission was created (pre-signed).`,
  'submitter.updated': (who) => `Contact details of ${who} changed by the sender.`,
  'submitter.reminded': (who) => `Reminder to sign e-mailed to ${who}.`,
  'bulk_send.completed': () => 'The bulk send that made this submission ended.',
  'submitter.email_2fa_verified': (who, from, how) =>
    `E-mailed code entered by ${who}${from}${how}, confirming access to the address.`,
}

/**
 * `event` in a sentence; `via` is how the signer came, when the journal recorded it; `member`, who
 * of a signer group acted, when one did.
 */
export function eventSentence(
  event: AuditEvent,
  submitters: AuditSubmitter[],
  via: ActVia = null,
  member: ActingMember | null = null,
): string {
  const signer = submitters.find((s) => s.id === event.submitter_id)
  const who = whoOf(signer, event, member)
  const from = event.ip ? ` from ${event.ip}` : ''
  const how = via ? HOW[via] : ''
  const sentence = SENTENCES[event.type]
  if (sentence) return sentence(who, from, how)
  const about = event.submitter_id ? `, concerning ${who}` : ''
  return `Event ${event.type}${about}${from}.`
}

/** The latest of the signers' signing times: when the submission was, in fact, fully signed. */
function lastSignature(record: AuditRecord): string | null {
  const times = record.submitters.map((s) => s.signed_at).filter((t): t is string => t !== null)
  return times.length > 0 ? times.reduce((a, b) => (a > b ? a : b)) : null
}

/** The trail's last line, once the final PDF is sealed; null before. */
export function completionSentence(record: AuditRecord): string | null {
  if (!record.final_pdf || !record.completed_at) return null
  const count = record.submitters.length
  const preSigned = record.submitters.filter((s) => s.status === 'pre_signed').length
  const everyone = count === 1 ? 'the signer signed' : `all ${count} signers signed`
  const byTheSender = preSigned > 0 ? ` (${preSigned} pre-signed by the sender)` : ''
  const stamp = record.final_pdf.timestamp
  const stamped = stamp ? ` and time-stamped by ${stamp.authority} at ${stamp.time}` : ''
  const when = lastSignature(record) ?? record.completed_at
  return `Completed on ${when} — ${everyone}${byTheSender}; the final PDF was sealed by Paraph at ${record.completed_at}${stamped}.`
}

/** How anyone can check the final PDF without Paraph. */
export function verificationSentence(sha256: string): string {
  return `Anyone can check the final PDF: its SHA-256 is ${sha256}; open it in a PDF reader to see Paraph's seal valid over the whole file.`
}
