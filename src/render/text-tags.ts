// The tag variables of HTML and DOCX documents (docs/api.md#syntax), one tag's text at a
// time: `{{Name;role=X;type=Y;required=true;readonly=false;options=A|B;width=120;height=40}}`.
// Pure: the text between the braces in, a field spec or a TagProblem (the reason in words) out;
// html-tags.ts finds the tags in a document and says where each one is.
// Decisions where the contract is silent:
// - the name is the first segment; it may hold spaces but no `;`, `=`, `{` or `}`, and is trimmed;
// - attribute names are lowercase and each may appear once; values are trimmed; `true`/`false`
//   only for the flags; `role` omitted means the first submitter's role (resolved by the route);
// - `width`/`height` are points (1–1000), each defaulting to the size of the field's type below;
// - a non-breaking space (Word and HTML editors put them in) counts as a space.
import { FIELD_TYPES, type FieldType } from '../lib/field-types.ts'

export interface TagSpec {
  name: string
  /** null: the first submitter's role. */
  role: string | null
  type: FieldType
  required: boolean
  readonly: boolean
  options: string[] | null
  /** The field box in points: the type's default size unless the tag says otherwise. */
  width: number
  height: number
}

/** Width × height in points of a field of each type, where the tag stands in the text. */
export const DEFAULT_TAG_SIZES: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 160, height: 48 },
  initials: { width: 64, height: 32 },
  date: { width: 96, height: 18 },
  text: { width: 160, height: 18 },
  number: { width: 80, height: 18 },
  checkbox: { width: 14, height: 14 },
  radio: { width: 120, height: 18 },
  select: { width: 120, height: 18 },
}

export const TAG_ATTRIBUTES = ['role', 'type', 'required', 'readonly', 'options', 'width', 'height'] as const
const MAX_NAME = 100
const MAX_ROLE = 100
const MAX_OPTIONS = 100
const MAX_OPTION = 200
const MAX_SIZE_PT = 1000

export class TagProblem extends Error {
  override readonly name = 'TagProblem'
}

function flag(attribute: string, value: string): boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  throw new TagProblem(`${attribute} must be true or false, not "${value}"`)
}

function points(attribute: string, value: string): number {
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= 1 && n <= MAX_SIZE_PT))
    throw new TagProblem(`${attribute} must be a number of points from 1 to ${MAX_SIZE_PT}, not "${value}"`)
  return n
}

/** `inner`: the text between `{{` and `}}`. Throws TagProblem with the reason. */
export function parseTag(inner: string): TagSpec {
  const segments = inner.replace(/\u00a0/g, ' ').split(';')
  const name = (segments.shift() ?? '').trim()
  if (name === '') throw new TagProblem('the tag has no field name before its first ";"')
  if (name.includes('=')) throw new TagProblem(`the tag starts with "${name}": a field name comes first`)
  if (/[{}]/.test(name)) throw new TagProblem(`the field name "${name}" contains a brace`)
  if ([...name].some((c) => c.charCodeAt(0) < 0x20))
    throw new TagProblem('the field name contains a control character')
  if (name.length > MAX_NAME) throw new TagProblem(`the field name is longer than ${MAX_NAME} characters`)
  const seen = new Map<string, string>()
  for (const segment of segments) {
    if (segment.trim() === '') throw new TagProblem('the tag has an empty attribute (";;" or a trailing ";")')
    const eq = segment.indexOf('=')
    if (eq < 0) throw new TagProblem(`"${segment.trim()}" is not attribute=value`)
    const key = segment.slice(0, eq).trim()
    const value = segment.slice(eq + 1).trim()
    if (!(TAG_ATTRIBUTES as readonly string[]).includes(key))
      throw new TagProblem(`unknown attribute "${key}" (known: ${TAG_ATTRIBUTES.join(', ')})`)
    if (seen.has(key)) throw new TagProblem(`the attribute ${key} appears twice`)
    if (value === '') throw new TagProblem(`${key} has no value`)
    seen.set(key, value)
  }
  const typeText = seen.get('type') ?? 'signature'
  if (!(FIELD_TYPES as readonly string[]).includes(typeText))
    throw new TagProblem(`unsupported type "${typeText}" (types: ${FIELD_TYPES.join(', ')})`)
  const type = typeText as FieldType
  const role = seen.get('role') ?? null
  if (role !== null && role.length > MAX_ROLE)
    throw new TagProblem(`the role is longer than ${MAX_ROLE} characters`)
  const optionsText = seen.get('options')
  const choice = type === 'radio' || type === 'select'
  if (choice && optionsText === undefined) throw new TagProblem(`a ${type} field needs options=A|B|…`)
  if (!choice && optionsText !== undefined)
    throw new TagProblem(`options= is for radio and select fields, not ${type}`)
  let options: string[] | null = null
  if (optionsText !== undefined) {
    options = optionsText.split('|').map((o) => o.trim())
    if (options.some((o) => o === '')) throw new TagProblem('options has an empty choice')
    if (options.length > MAX_OPTIONS) throw new TagProblem(`options has more than ${MAX_OPTIONS} choices`)
    if (options.some((o) => o.length > MAX_OPTION))
      throw new TagProblem(`an option is longer than ${MAX_OPTION} characters`)
    if (new Set(options).size !== options.length) throw new TagProblem('options repeats a choice')
  }
  const size = DEFAULT_TAG_SIZES[type]
  const width = seen.has('width') ? points('width', seen.get('width')!) : size.width
  const height = seen.has('height') ? points('height', seen.get('height')!) : size.height
  return {
    name,
    role,
    type,
    required: seen.has('required') ? flag('required', seen.get('required')!) : true,
    readonly: seen.has('readonly') ? flag('readonly', seen.get('readonly')!) : false,
    options,
    width,
    height,
  }
}
