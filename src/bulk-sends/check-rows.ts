// docs/api.md#bulk-send, the check: every row against the template, every problem of every row —
// roles, addresses (deliverability included), values by field type and options, required read-only
// fields no signer can fill, a repeated external_id — each with its row and column. What passes is
// read into the submitters a submission from the template is made of. The rules are those of
// POST /v1/submissions (submissions/creation-rules.ts), applied without stopping at the first.
import { rolesOf, type StoredField } from '../documents/document-model.ts'
import { dateRangeProblem, type FieldValue, valueProblem } from '../documents/field-values.ts'
import { parseEmailAddress } from '../lib/email-address.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { NewSubmitter } from '../submissions/record-submission.ts'
import type { BulkSendError } from './bulk-send-schemas.ts'
import type { RowInput, RowSubmitter } from './row-input.ts'

export interface RowProblem {
  column: string
  code: string
  message: string
}

/** A row once checked: its problems, or what its submission is made of. */
export interface CheckedRow {
  row: number
  externalId: string | null
  problems: RowProblem[]
  submitters: NewSubmitter[]
  metadata: Record<string, string | number | boolean | null>
}

const TRUE = new Set(['true', 'yes', '1'])
const FALSE = new Set(['false', 'no', '0'])
const DECIMAL = /^-?\d+(\.\d+)?$/

/** A CSV cell read as its field's type; a problem when it cannot be. */
function fromText(field: StoredField, text: string): { value: FieldValue } | { problem: string } {
  const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
  if (field.type === 'number') {
    const t = text.trim()
    return DECIMAL.test(t)
      ? { value: Number(t) }
      : { problem: `must be a decimal number like 1234.5 (it is ${shown})` }
  }
  if (field.type === 'checkbox') {
    const t = text.trim().toLowerCase()
    if (TRUE.has(t)) return { value: true }
    if (FALSE.has(t)) return { value: false }
    return { problem: `must be true or false (also yes/no, 1/0; it is ${shown})` }
  }
  if (field.type === 'date') {
    const t = text.trim()
    return valueProblem(field, t) ? { problem: `must be a date YYYY-MM-DD (it is ${shown})` } : { value: t }
  }
  return { value: field.type === 'text' ? text : text.trim() }
}

/** Addresses whose local part is not ASCII: they need an SMTP server announcing SMTPUTF8. */
export type Utf8Delivery = Awaited<ReturnType<Mailer['utf8Delivery']>>

interface Context {
  fields: StoredField[]
  roles: string[]
  /** Asked once, and only when a row has an address that needs it. */
  utf8: () => Promise<Utf8Delivery>
  seenExternalIds: Map<string, number>
  /** The request's metadata, under each row's. */
  baseMetadata: Record<string, string | number | boolean | null>
}

export async function checkRows(
  rows: RowInput[],
  fields: StoredField[],
  mailer: Pick<Mailer, 'utf8Delivery'>,
  baseMetadata: Record<string, string | number | boolean | null>,
): Promise<CheckedRow[]> {
  let delivery: Promise<Utf8Delivery> | undefined
  const context: Context = {
    fields,
    roles: rolesOf(fields),
    utf8: () => {
      delivery ??= mailer.utf8Delivery()
      return delivery
    },
    seenExternalIds: new Map(),
    baseMetadata,
  }
  const checked: CheckedRow[] = []
  for (const [i, row] of rows.entries()) checked.push(await checkRow(row, i + 1, context))
  return checked
}

/** Every problem of every row, as the dry run answers them. */
export function rowErrors(checked: CheckedRow[]): BulkSendError[] {
  return checked.flatMap((c) => c.problems.map((p) => ({ row: c.row, ...p })))
}

async function checkRow(input: RowInput, row: number, context: Context): Promise<CheckedRow> {
  const problems: RowProblem[] = [...input.problems]
  const problem = (column: string, code: string, message: string) => problems.push({ column, code, message })
  const seenRoles = new Set<string>()
  for (const s of input.submitters) {
    if (!context.roles.includes(s.role)) {
      problem(
        s.at.role,
        'submitter_role_not_in_template',
        `"${s.role}" is not a role of the template (roles: ${context.roles.map((r) => `"${r}"`).join(', ')}).`,
      )
    } else if (seenRoles.has(s.role)) {
      problem(s.at.role, 'invalid_request', `"${s.role}" is given twice; each role signs once.`)
    }
    seenRoles.add(s.role)
    await checkAddresses(s, problem, context)
  }
  for (const role of context.roles) {
    if (!seenRoles.has(role))
      problem(
        input.missingRoleColumn(role),
        'invalid_request',
        `no signer for the role "${role}": give an address.`,
      )
  }
  const values = new Map<string, Record<string, FieldValue>>()
  for (const v of input.values) {
    const field = context.fields.find((f) => f.name === v.name)
    if (!field) {
      problem(v.column, 'invalid_request', `the template has no field "${v.name}".`)
      continue
    }
    const read = v.fromText && typeof v.value === 'string' ? fromText(field, v.value) : { value: v.value }
    const why =
      'problem' in read
        ? read.problem
        : (valueProblem(field, read.value) ?? dateRangeProblem(field, read.value))
    if (why) {
      problem(v.column, 'invalid_field_value', `${why}.`)
      continue
    }
    if ('value' in read) {
      const ofRole = values.get(field.role) ?? {}
      ofRole[field.name] = read.value
      values.set(field.role, ofRole)
    }
  }
  for (const field of context.fields) {
    if (field.required && field.readonly && values.get(field.role)?.[field.name] === undefined)
      problem(
        input.valueColumn(field.name),
        'missing_required_fields',
        `"${field.name}" is required and read-only: no signer can fill it, so the row must give its value.`,
      )
  }
  const metadata = { ...context.baseMetadata, ...input.metadata }
  if (Object.keys(metadata).length > 50)
    problem(
      'metadata',
      'invalid_request',
      `has ${Object.keys(metadata).length} keys with the request's; at most 50.`,
    )
  if (input.externalId !== undefined) {
    const earlier = context.seenExternalIds.get(input.externalId)
    if (earlier !== undefined)
      problem(
        'external_id',
        'invalid_request',
        `"${input.externalId}" is also the external_id of row ${earlier}; each row's is its own.`,
      )
    else context.seenExternalIds.set(input.externalId, row)
  }
  return {
    row,
    externalId: input.externalId ?? null,
    problems,
    metadata,
    submitters:
      problems.length > 0
        ? []
        : input.submitters.map((s) => ({
            role: s.role,
            ...(s.email !== undefined && { email: s.email }),
            ...(s.members !== undefined && { members: s.members }),
            ...(s.name !== undefined && { name: s.name }),
            values: values.get(s.role) ?? {},
          })),
  }
}

async function checkAddresses(
  s: RowSubmitter,
  problem: (column: string, code: string, message: string) => void,
  context: Context,
): Promise<void> {
  if (s.email !== undefined && s.members !== undefined) {
    problem(
      s.at.email,
      'invalid_request',
      'give either `email` (one signer) or `members` (a signer group), not both.',
    )
    return
  }
  const given = s.members ?? (s.email === undefined ? [] : [{ email: s.email }])
  if (given.length === 0) {
    problem(s.at.email, 'invalid_request', `is required: the address of the "${s.role}" signer.`)
    return
  }
  if (given.length > 10) {
    problem(s.at.email, 'invalid_request', `names ${given.length} people; a signer group has 2 to 10.`)
    return
  }
  const keys = new Map<string, number>()
  for (const [j, member] of given.entries()) {
    const column = s.members ? s.at.member(j) : s.at.email
    const parsed = parseEmailAddress(member.email)
    if (!parsed.ok) {
      problem(
        column,
        'invalid_request',
        `"${member.email.slice(0, 100)}" is not an e-mail address: ${parsed.problem}.`,
      )
      continue
    }
    const key = parsed.address.normalized
    if (keys.has(key)) {
      problem(
        column,
        'invalid_request',
        `"${member.email}" is in the group twice; each member is another person.`,
      )
      continue
    }
    keys.set(key, j)
    if (!parsed.address.asciiLocalPart) {
      const delivery = await context.utf8()
      if (delivery !== 'announced' && delivery !== 'outbox')
        problem(
          column,
          'email_not_deliverable',
          `the local part of "${member.email}" is not ASCII and the SMTP server does not take such addresses (SMTPUTF8); give an ASCII address.`,
        )
    }
  }
}
