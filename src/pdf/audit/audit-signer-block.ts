// One signer's block of the audit trail (docs/security.md#audit-trail): their details, how they were
// reached, each act with its time, address and browser, the consent as they read it, a signer
// group's members; beside it the signature and initials images they drew, framed, with their hashes;
// under it the values they filled.
import type { EmbeddedImage } from '../final/png-image.ts'
import { EMPTY, keyValues, mono, muted, plain } from './audit-cells.ts'
import type { AuditFieldValue, AuditImageValue, AuditSubmitter } from './audit-record.ts'
import { languageName, signerName } from './audit-sentences.ts'
import { type Cell, type Flow, MUTED } from './flow-layout.ts'

/** The embedded signature images, by their SHA-256. */
export type Pictures = ReadonlyMap<string, EmbeddedImage>

// The column of signature images beside a signer's details, and the frame each is drawn in.
const ASIDE_WIDTH = 150
const PICTURE = { width: 150, height: 56 }

export function isImage(value: AuditFieldValue['value']): value is AuditImageValue {
  return typeof value === 'object' && value !== null
}

export function imageValues(s: AuditSubmitter): AuditImageValue[] {
  return s.values.map((v) => v.value).filter(isImage)
}

const DELIVERY: Record<AuditSubmitter['delivery'], string> = {
  email: 'signing request e-mailed to the signer',
  link: 'signing link handed on by the sender',
  embed: "form embedded in the sender's application",
}

/** When, from where and with what browser a person acted, on lines of their own. */
function act(at: string | null, ip: string | null, userAgent: string | null): Cell {
  if (!at) return plain(null)
  return [{ text: at }, { text: `from ${ip ?? EMPTY}` }, muted(userAgent ?? EMPTY)]
}

/** The consent quoted as the signer read it, and in which language. */
function consentCell(s: AuditSubmitter): Cell {
  if (!s.consent_text) return plain(null)
  const how = s.status === 'declined' ? 'shown; the signer declined' : 'accepted by signing'
  const language = s.consent_language
    ? `in ${languageName(s.consent_language)}`
    : "the page's language was not recorded: the English wording"
  return [muted(`${how}, ${language}:`, 7.5), { text: `“${s.consent_text}”` }]
}

const MEMBER_STATUS: Record<string, string> = {
  signed: 'signed for the role',
  superseded: 'did not sign: another member signed',
  declined: 'declined for the role',
  pending: 'had not signed',
}

/** docs/api.md#signer-groups: each member of a group, and what became of them. */
function membersCell(s: AuditSubmitter): Cell {
  const members = s.members ?? []
  return [
    muted(`any one of ${members.length} people, each asked with a link of their own:`, 7.5),
    ...members.map((m) => ({ text: `${signerName(m)} — ${MEMBER_STATUS[m.status] ?? m.status}` })),
  ]
}

function signerRows(s: AuditSubmitter): Array<[string, Cell]> {
  const rows: Array<[string, Cell]> = [
    ['Name', plain(s.name)],
    ['E-mail', plain(s.email)],
    ['Role', plain(s.role)],
    ...(s.members?.length ? [['Signer group', membersCell(s)] as [string, Cell]] : []),
    ['Submitter', [mono(s.id, 8)]],
    ['Reached by', plain(DELIVERY[s.delivery])],
    [
      'E-mail code (2FA)',
      plain(s.email_2fa_verified_at ? `e-mail code verified at ${s.email_2fa_verified_at}` : 'none entered'),
    ],
    ['Status', plain(s.status)],
    // A group's first opening may be another member's: the timeline says whose.
    [
      s.members?.length ? 'Opened (first, by a member)' : 'Opened',
      act(s.opened_at, s.opened_ip, s.opened_user_agent),
    ],
  ]
  if (s.status === 'pre_signed')
    rows.push(['Signed', plain(`${s.signed_at ?? EMPTY}, pre-signed by the sender`)])
  else if (s.signed_at) rows.push(['Signed', act(s.signed_at, s.signed_ip, s.signed_user_agent)])
  if (s.declined_at) {
    rows.push(['Declined', act(s.declined_at, s.declined_ip, s.declined_user_agent)])
    rows.push(['Reason', plain(s.decline_reason)])
  }
  rows.push(['Consent', consentCell(s)])
  return rows
}

/** Each distinct image the signer drew, framed, with its field, size and hash under it. */
function signatureAside(s: AuditSubmitter, pictures: Pictures): Cell {
  const cell: Cell = []
  const seen = new Set<string>()
  for (const { name, type, value } of s.values) {
    if (!isImage(value) || seen.has(value.sha256)) continue
    seen.add(value.sha256)
    const kind = type === 'initials' ? 'Initials' : 'Signature'
    if (cell.length > 0) cell.push({ text: '', size: 5 })
    cell.push(muted(name.toLowerCase() === kind.toLowerCase() ? kind : `${kind} (${name})`, 7))
    const picture = pictures.get(value.sha256)
    if (picture) cell.push({ picture, ...PICTURE })
    else cell.push(muted('image not included in this file', 7))
    cell.push(muted(`PNG, ${value.width} × ${value.height} px, SHA-256:`, 6.5), mono(value.sha256, 6.5))
  }
  return cell
}

export function writeSubmitter(
  flow: Flow,
  s: AuditSubmitter,
  index: number,
  count: number,
  pictures: Pictures,
): void {
  const aside = signatureAside(s, pictures)
  // The heading stays with the signature images, which are kept whole on one page.
  flow.heading(
    `Signer ${index + 1} of ${count}: ${s.name ?? s.email}`,
    12,
    Math.max(60, flow.measure(aside, ASIDE_WIDTH)),
  )
  if (aside.length > 0) flow.beside(aside, ASIDE_WIDTH, (width) => keyValues(flow, signerRows(s), width))
  else keyValues(flow, signerRows(s))
  if (s.values.length > 0) {
    flow.gap(6)
    flow.table(
      [
        { title: 'Field', width: 120 },
        { title: 'Type', width: 60 },
        { title: 'Value', width: flow.width - 180 },
      ],
      s.values.map((v) => [plain(v.name), plain(v.type), valueCell(v.value)]),
    )
  }
  flow.gap(18)
}

function valueCell(value: AuditFieldValue['value']): Cell {
  if (value === null) return [{ text: '(empty)', color: MUTED }]
  if (typeof value === 'boolean') return plain(value ? 'checked' : 'not checked')
  if (typeof value === 'object')
    return [{ text: `PNG image, ${value.width} × ${value.height} px` }, mono(value.sha256)]
  return plain(String(value))
}
