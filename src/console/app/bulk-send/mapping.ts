// The mapping step of "Send to many" (docs/console.md#send-to-many): each column of the person's CSV
// is mapped to a column the API knows (docs/api.md#bulk-send: `ROLE.email`, `ROLE.name`,
// `field:NAME`, `external_id`, `metadata.KEY`) or ignored, then the CSV is written again under those
// names, the ignored columns left out. Pure: node's tests run it without a browser.
import type { Template } from '../types.ts'
import { type CsvTable, writeCsv } from './csv.ts'

/** One column's choice: `target` an API column name, `metadata` (named by `key`), or '' to ignore it. */
export interface ColumnChoice {
  target: string
  key: string
}

export type Mapping = ColumnChoice[]

export interface Target {
  /** The API's column name (`Employee.email`, `field:Salary`, `external_id`) or `metadata`. */
  value: string
  kind: 'email' | 'name' | 'field' | 'external_id' | 'metadata'
  role?: string
  field?: string
}

export const METADATA = 'metadata'

/** What a column may be mapped to, for this template: its roles' addresses and names, its fields. */
export function targetsOf(template: Pick<Template, 'roles' | 'fields'>): Target[] {
  return [
    ...template.roles.flatMap((role): Target[] => [
      { value: `${role}.email`, kind: 'email', role },
      { value: `${role}.name`, kind: 'name', role },
    ]),
    ...template.fields.map(
      (f): Target => ({ value: `field:${f.name}`, kind: 'field', role: f.role, field: f.name }),
    ),
    { value: 'external_id', kind: 'external_id' },
    { value: METADATA, kind: 'metadata' },
  ]
}

/** `Employee e-mail` → `employeeemail`: what a header and a name are compared by. */
const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/** The spellings of a header that mean this target, squashed, best first. */
function spellings(target: Target, singleRole: boolean): string[] {
  const exact = squash(target.value)
  switch (target.kind) {
    case 'email': {
      const role = squash(target.role!)
      const own = ['email', 'emailaddress', 'mail', 'address'].map((word) => role + word)
      return [exact, ...own, ...(singleRole ? ['email', 'emailaddress', 'mail'] : [])]
    }
    case 'name': {
      const role = squash(target.role!)
      return [exact, `${role}name`, `${role}fullname`, ...(singleRole ? ['name', 'fullname'] : [])]
    }
    case 'field':
      return [exact, squash(target.field!)]
    case 'external_id':
      return [exact, 'externalid', 'externalreference', 'reference']
    case 'metadata':
      return []
  }
}

/**
 * A first mapping: a header naming a target (case and punctuation aside: `employee email`,
 * `Employee.email`, `field:salary`, `Salary`) is mapped to it, each target at most once; a
 * `metadata.KEY` header is metadata under KEY; the rest ignored.
 */
export function guessMapping(header: string[], template: Pick<Template, 'roles' | 'fields'>): Mapping {
  const targets = targetsOf(template).filter((t) => t.kind !== 'metadata')
  const singleRole = template.roles.length === 1
  const taken = new Set<string>()
  const squashed = header.map(squash)
  const choices: Mapping = header.map((name) => {
    const key = /^metadata\.(.+)$/i.exec(name.trim())?.[1]
    return key ? { target: METADATA, key } : { target: '', key: '' }
  })
  // Rank by how well each spelling fits, so an exact `Employee.email` wins over a loose `email`.
  for (let rank = 0; rank < 6; rank++) {
    for (const target of targets) {
      if (taken.has(target.value)) continue
      const spelling = spellings(target, singleRole)[rank]
      if (spelling === undefined) continue
      const column = squashed.findIndex((s, i) => s === spelling && choices[i]!.target === '')
      if (column < 0) continue
      choices[column] = { target: target.value, key: '' }
      taken.add(target.value)
    }
  }
  return choices
}

/** The API column a choice writes, or null when the column is ignored. */
export function columnName(choice: ColumnChoice): string | null {
  if (choice.target === '') return null
  return choice.target === METADATA ? `metadata.${choice.key.trim()}` : choice.target
}

export interface MappingProblems {
  /** Roles with no column mapped to their e-mail address: the API needs one per role. */
  missingRoles: string[]
  /** API columns two CSV columns are mapped to. */
  twice: string[]
  /** Whether a metadata column has no key. */
  metadataWithoutKey: boolean
}

export function mappingProblems(mapping: Mapping, template: Pick<Template, 'roles'>): MappingProblems {
  const names = mapping.map(columnName).filter((n): n is string => n !== null)
  const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))]
  return {
    missingRoles: template.roles.filter((role) => !names.includes(`${role}.email`)),
    twice,
    metadataWithoutKey: mapping.some((c) => c.target === METADATA && c.key.trim() === ''),
  }
}

export const mappingReady = (p: MappingProblems) =>
  p.missingRoles.length === 0 && p.twice.length === 0 && !p.metadataWithoutKey

/** The CSV the API reads: the mapped columns under their API names, in the file's order. */
export function rewriteCsv(table: CsvTable, mapping: Mapping): string {
  const kept = mapping.flatMap((choice, i) => {
    const name = columnName(choice)
    return name === null ? [] : [{ name, i }]
  })
  return writeCsv(
    kept.map((k) => k.name),
    table.rows.map((row) => kept.map((k) => row[k.i] ?? '')),
  )
}

/** The person's own header for an API column an error names (`field:Salary` → `Annual salary`). */
export function headerFor(column: string, table: CsvTable, mapping: Mapping): string {
  const i = mapping.findIndex((choice) => columnName(choice) === column)
  return i >= 0 ? table.header[i]! : column
}
