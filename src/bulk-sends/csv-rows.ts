// docs/api.md#bulk-send, the CSV grammar: RFC 4180 read by csv-parse (docs/decisions/0013-csv-parsing.md),
// a header naming `ROLE.email`, `ROLE.name`, `field:FIELD_NAME`, `external_id` and `metadata.KEY`
// columns against the template, then each line read into a row. A header that cannot be read is
// the request's fault (422 naming `csv`); a cell that cannot be used is its row's (an error of the
// check, with its column).
import { CsvError, parse } from 'csv-parse/sync'
import { rolesOf, type StoredField } from '../documents/document-model.ts'
import { fieldError } from '../errors.ts'
import { MAX_BULK_ROWS } from './bulk-send-schemas.ts'
import type { RowInput, RowSubmitter } from './row-input.ts'

type Column =
  | { kind: 'email' | 'name'; role: string }
  | { kind: 'field'; name: string }
  | { kind: 'external_id' }
  | { kind: 'metadata'; key: string }

function quoted(values: string[]): string {
  return values.map((v) => `"${v}"`).join(', ')
}

function refuse(message: string): never {
  throw fieldError('invalid_request', 'csv', message)
}

/** What a header names, or a 422 that says what the columns may be. */
function readHeader(header: string[], fields: StoredField[]): Column[] {
  const roles = rolesOf(fields)
  const grammar = `columns are ROLE.email, ROLE.name, field:FIELD_NAME, external_id and metadata.KEY (roles: ${quoted(roles)}; fields: ${quoted(fields.map((f) => f.name))})`
  const seen = new Set<string>()
  const columns = header.map((raw, i): Column => {
    const name = raw.trim()
    if (seen.has(name)) refuse(`column "${name}" appears twice (columns ${i + 1} and an earlier one).`)
    seen.add(name)
    if (name === 'external_id') return { kind: 'external_id' }
    if (name.startsWith('field:')) {
      const field = name.slice('field:'.length)
      if (!fields.some((f) => f.name === field))
        refuse(`column "${name}": the template has no field "${field}"; ${grammar}.`)
      return { kind: 'field', name: field }
    }
    if (name.startsWith('metadata.')) {
      const key = name.slice('metadata.'.length)
      if (key.length === 0 || key.length > 100)
        refuse(`column "${name}": a metadata key is 1 to 100 characters.`)
      return { kind: 'metadata', key }
    }
    const dot = name.lastIndexOf('.')
    const part = name.slice(dot + 1)
    if (dot > 0 && (part === 'email' || part === 'name')) {
      const role = name.slice(0, dot)
      if (!roles.includes(role)) refuse(`column "${name}": the template has no role "${role}"; ${grammar}.`)
      return { kind: part, role }
    }
    return refuse(`unknown column "${name.slice(0, 100)}"; ${grammar}.`)
  })
  for (const role of roles) {
    if (!columns.some((c) => c.kind === 'email' && c.role === role))
      refuse(`no column "${role}.email": every role of the template needs its signers' addresses.`)
  }
  return columns
}

function parseRecords(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][]
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines
      refuse(
        `is not CSV as RFC 4180 writes it${line ? ` (line ${line})` : ''}: ${error.message.replace(/^Invalid [^:]+: /, '')}`,
      )
    }
    throw error
  }
}

/** The rows of a CSV text; `template` gives the names its header may use. */
export function rowsFromCsv(text: string, fields: StoredField[]): RowInput[] {
  const records = parseRecords(text)
  if (records.length === 0) refuse('is empty: give a header line, then one line per row.')
  const [header, ...lines] = records as [string[], ...string[][]]
  const columns = readHeader(header, fields)
  if (lines.length === 0) refuse('has a header but no row.')
  if (lines.length > MAX_BULK_ROWS)
    refuse(`has ${lines.length} rows; at most ${MAX_BULK_ROWS} in one bulk send: split it into several.`)
  return lines.map((cells) => readLine(cells, header, columns))
}

function readLine(cells: string[], header: string[], columns: Column[]): RowInput {
  const row: RowInput = {
    submitters: [],
    values: [],
    metadata: {},
    problems: [],
    missingRoleColumn: (role) => `${role}.email`,
    valueColumn: (name) => `field:${name}`,
  }
  if (cells.length !== header.length) {
    row.problems.push({
      column: 'row',
      code: 'invalid_request',
      message: `has ${cells.length} field(s) where the header has ${header.length}: quote a cell that holds a comma.`,
    })
  }
  const submitterOf = (role: string): RowSubmitter => {
    let s = row.submitters.find((x) => x.role === role)
    if (!s) {
      s = {
        role,
        at: {
          role: `${role}.email`,
          email: `${role}.email`,
          member: () => `${role}.email`,
          name: `${role}.name`,
        },
      }
      row.submitters.push(s)
    }
    return s
  }
  const tooLong = (column: string, max: number) =>
    row.problems.push({ column, code: 'invalid_request', message: `must be at most ${max} characters.` })
  for (const [i, column] of columns.entries()) {
    const cell = cells[i] ?? ''
    const name = header[i]!.trim()
    const trimmed = cell.trim()
    switch (column.kind) {
      case 'email': {
        const s = submitterOf(column.role)
        const addresses = trimmed
          .split(';')
          .map((a) => a.trim())
          .filter((a) => a !== '')
        if (addresses.length > 1) s.members = addresses.map((email) => ({ email }))
        else if (addresses.length === 1) s.email = addresses[0]!
        break
      }
      case 'name':
        if (trimmed.length > 200) tooLong(name, 200)
        else if (trimmed !== '') submitterOf(column.role).name = trimmed
        break
      case 'field':
        if (cell !== '') row.values.push({ name: column.name, value: cell, fromText: true, column: name })
        break
      case 'external_id':
        if (trimmed.length > 255) tooLong(name, 255)
        else if (trimmed !== '') row.externalId = trimmed
        break
      case 'metadata':
        if (cell.length > 2000) tooLong(name, 2000)
        else if (cell !== '') row.metadata[column.key] = cell
        break
    }
  }
  return row
}
