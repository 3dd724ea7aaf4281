// The audit trail of a submission (docs/security.md#audit-trail), drawn up from what the
// service recorded: the documents as sent with their hashes, each signer's acts with time, address
// and user agent, how they were reached, the consent wording, their values (images by hash and
// size), and every journal event, each in a sentence. The final PDF's hash, the
// completion and how to verify it are added by the finalizer once it is sealed (withFinalPdf).
import type { EventsTable, GroupMembersTable, SubmissionsTable, SubmittersTable } from '../db/tables.ts'
import type { StoredField } from '../documents/document-model.ts'
import { pngDataUrlBytes } from '../documents/field-values.ts'
import { isStoredImage, parseStoredValues, type StoredValue } from '../documents/stored-values.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { own } from '../lib/own.ts'
import {
  type AuditEvent,
  type AuditFieldValue,
  type AuditGroupMember,
  type AuditRecord,
  type AuditSubmitter,
  SES_LEGAL_LEVEL,
} from '../pdf/audit/audit-record.ts'
import { type ActingMember, type ActVia, eventSentence, groupName } from '../pdf/audit/audit-sentences.ts'
import type { TemplateRecord } from '../templates/template-store.ts'
import { consentIn } from './consent.ts'

/** A value as the trail shows it: an image as its hash and size, never its bytes. */
function auditValue(field: StoredField, value: StoredValue | undefined): AuditFieldValue['value'] {
  if (value === undefined) return null
  if (isStoredImage(value)) return { sha256: value.sha256, width: value.width, height: value.height }
  const png = field.type === 'signature' || field.type === 'initials' ? pngDataUrlBytes(value) : null
  // A value given at creation (pre-signed) is still the data URL: hash it, read its header's size.
  if (png) return { sha256: sha256Hex(png), width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
  return value
}

function delivery(submitter: SubmittersTable): AuditSubmitter['delivery'] {
  if (submitter.opened_via === 'embed') return 'embed'
  return submitter.send_email === 1 ? 'email' : 'link'
}

/** docs/api.md#signer-groups: a group's members and what became of each. */
function auditMembers(members: GroupMembersTable[]): AuditGroupMember[] {
  return members.map((m) => ({
    id: m.id,
    email: m.email,
    name: m.name,
    status: m.status,
    signed_at: m.signed_at,
    email_2fa_verified_at: m.email_2fa_verified_at,
  }))
}

function auditSubmitter(
  submitter: SubmittersTable,
  fields: StoredField[],
  members: GroupMembersTable[],
): AuditSubmitter {
  const values = parseStoredValues(submitter.values)
  const acted = submitter.status === 'signed' || submitter.status === 'declined'
  // Issue #21 item 6: the wording the page showed in the language it was in when the signer acted.
  const consent = consentIn(submitter.page_language)
  return {
    id: submitter.id,
    role: submitter.role,
    email: submitter.email,
    name: submitter.name,
    delivery: delivery(submitter),
    email_2fa_verified_at: submitter.email_2fa_verified_at,
    status: submitter.status,
    opened_at: submitter.opened_at,
    opened_ip: submitter.opened_ip,
    opened_user_agent: submitter.opened_user_agent,
    signed_at: submitter.signed_at,
    signed_ip: submitter.signed_ip,
    signed_user_agent: submitter.signed_user_agent,
    declined_at: submitter.declined_at,
    declined_ip: submitter.declined_ip,
    declined_user_agent: submitter.declined_user_agent,
    decline_reason: submitter.decline_reason,
    consent_text: acted ? consent.text : null,
    consent_language: acted ? consent.language : null,
    values: fields
      .filter((f) => f.role === submitter.role)
      .map((f) => ({ name: f.name, type: f.type, value: auditValue(f, own(values, f.name)) })),
    ...(submitter.grouped === 1 ? { members: auditMembers(members) } : {}),
  }
}

/** `submitter.reminded` in words: which reminder, and whether the sender asked for it or the policy did. */
function reminderDetails(event: EventsTable): string {
  const data = JSON.parse(event.data) as { count?: number; manual?: boolean }
  const how = data.manual ? 'sent at the sender’s request' : 'sent automatically (reminder policy)'
  return `Reminder ${data.count ?? '?'}, ${how}`
}

interface SnapshotOfCreation {
  object?: { submitters?: Array<{ role?: string; members?: ActingMember[] }> }
}

/**
 * docs/api.md#signer-groups: the groups as the submission was created and sent — the journal's own
 * picture of the submission then — each with its members.
 */
function groupsAtSending(event: EventsTable, submitters: SubmittersTable[]): string | null {
  const snapshot = (JSON.parse(event.data) as SnapshotOfCreation).object?.submitters ?? []
  const groups = snapshot.flatMap((s, i) =>
    s.members?.length ? [groupName({ role: submitters[i]?.role ?? s.role ?? '?' }, s.members)] : [],
  )
  return groups.length > 0 ? `Asked to sign: ${groups.join('; ')}` : null
}

interface UpdateData {
  changed?: string[]
  email?: { from: string; to: string }
  members?: { added: string[]; removed: string[] }
}

/** One change of a PATCH in words: the address's old and new value, a group's people in and out. */
function changeWords(field: string, data: UpdateData): string {
  if (field === 'email' && data.email) return `email ${data.email.from} → ${data.email.to}`
  if (field !== 'members' || !data.members) return field
  const parts = [
    ...(data.members.added.length ? [`added ${data.members.added.join(', ')}`] : []),
    ...(data.members.removed.length ? [`removed ${data.members.removed.join(', ')}`] : []),
  ]
  return parts.length ? `members of the signer group (${parts.join('; ')})` : 'members of the signer group'
}

/**
 * `submitter.updated` (PATCH /v1/submitters/{id}) in words: which fields, and the e-mail's old and
 * new value or a group's members; `submitter.reminded`: which reminder and how;
 * `submission.created`: the signer groups and their members.
 */
function eventDetails(event: EventsTable, submitters: SubmittersTable[]): string | null {
  if (event.type === 'submitter.reminded') return reminderDetails(event)
  if (event.type === 'submission.created') return groupsAtSending(event, submitters)
  if (event.type !== 'submitter.updated') return null
  const data = JSON.parse(event.data) as UpdateData
  const changes = (data.changed ?? []).map((field) => changeWords(field, data))
  return `Changed by the sender: ${changes.join(', ')}`
}

/** The member of a signer group who acted, as the event's journal names them. */
function memberOf(event: EventsTable): ActingMember | null {
  const { member } = JSON.parse(event.data) as { member?: ActingMember }
  return member && typeof member.email === 'string'
    ? { name: member.name ?? null, email: member.email }
    : null
}

/** How the signer came for a signer's act (apply-submitter-move.ts records `via`), when recorded. */
function viaOf(event: EventsTable): ActVia {
  if (!event.type.startsWith('submitter.')) return null
  const { via } = JSON.parse(event.data) as { via?: unknown }
  return via === 'link' || via === 'embed' ? via : null
}

function auditEvent(event: EventsTable, submitters: AuditSubmitter[], rows: SubmittersTable[]): AuditEvent {
  const audited: AuditEvent = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    submitter_id: event.submitter_id,
    ip: event.actor_ip,
    user_agent: event.actor_user_agent,
    details: eventDetails(event, rows),
  }
  return { ...audited, description: eventSentence(audited, submitters, viaOf(event), memberOf(event)) }
}

export function auditRecordOf(
  submission: SubmissionsTable,
  template: TemplateRecord,
  submitters: SubmittersTable[],
  events: EventsTable[],
  completedAt: string | null,
  members: GroupMembersTable[] = [],
): AuditRecord {
  const audited = submitters.map((s) =>
    auditSubmitter(
      s,
      template.fields,
      members.filter((m) => m.submitter_id === s.id),
    ),
  )
  return {
    submission_id: submission.id,
    legal_level: SES_LEGAL_LEVEL,
    status: completedAt ? 'completed' : submission.status,
    created_at: submission.created_at,
    completed_at: completedAt,
    documents: template.documents.map((d) => ({
      name: d.name,
      page_count: d.pages.length,
      sha256: d.sha256,
    })),
    final_pdf: null,
    submitters: audited,
    events: events.map((e) => auditEvent(e, audited, submitters)),
    completion: null,
    verification: null,
  }
}
