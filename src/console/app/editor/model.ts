// The template editor's data: fields with one area each, kept as page fractions with a top-left
// origin (docs/api.md#field-areas), so the drawing never depends on the size the page is shown at.
// Pure functions only: the components call them and keep the results.

import type { FieldType } from '../../../lib/field-types.ts'

export interface PageSize {
  width: number
  height: number
}

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

export interface EditorField extends Rect {
  /** Local id for the list and the keyboard focus; never sent. */
  key: string
  page: number
  name: string
  type: FieldType
  role: string
  required: boolean
  readonly: boolean
  options: string[]
}

export const hasOptions = (type: FieldType) => type === 'radio' || type === 'select'

/** A default size in points, for "Add field" and a click without a drag. */
const DEFAULT_SIZE: Record<FieldType, [number, number]> = {
  signature: [160, 44],
  initials: [60, 36],
  date: [110, 22],
  text: [180, 22],
  checkbox: [16, 16],
  number: [90, 22],
  radio: [120, 60],
  select: [150, 22],
}

let counter = 0
export const newKey = () => `f${++counter}`

/** `Signature 3`: the type's label and the first number no field of the list uses. */
export function nextName(fields: EditorField[], label: string): string {
  const taken = new Set(fields.map((f) => f.name))
  let n = 1
  while (taken.has(`${label} ${n}`)) n++
  return `${label} ${n}`
}

export function clamp(rect: Rect): Rect {
  const w = Math.min(Math.max(rect.w, 0.001), 1)
  const h = Math.min(Math.max(rect.h, 0.001), 1)
  return { x: Math.min(Math.max(rect.x, 0), 1 - w), y: Math.min(Math.max(rect.y, 0), 1 - h), w, h }
}

/** The rectangle between two points of a drag, in fractions. */
export function spanning(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  return clamp({
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    w: Math.abs(a.x - b.x),
    h: Math.abs(a.y - b.y),
  })
}

/** A default-sized rectangle of the type, centred on the page's upper third. */
export function defaultRect(type: FieldType, size: PageSize): Rect {
  const [w, h] = DEFAULT_SIZE[type]
  return clamp({ x: 0.5 - w / size.width / 2, y: 0.3, w: w / size.width, h: h / size.height })
}

/**
 * Where "Add field" puts a field of the type: the default rectangle, moved down below each field of
 * the page it would cover (a gap of half its height), so pressing it again never stacks one field on
 * another; back at the default place when the page's foot is reached.
 */
export function freeRect(type: FieldType, size: PageSize, onPage: Rect[]): Rect {
  const first = defaultRect(type, size)
  let rect = first
  const covers = (r: Rect) =>
    r.x < rect.x + rect.w && rect.x < r.x + r.w && r.y < rect.y + rect.h && rect.y < r.y + r.h
  for (let blocker = onPage.find(covers); blocker; blocker = onPage.find(covers)) {
    const y = blocker.y + blocker.h + rect.h / 2
    if (y + rect.h > 1) return first
    rect = { ...rect, y }
  }
  return rect
}

/** Moved by points (the arrow keys: 1 pt, with Shift 10 pt). */
export function nudge(rect: Rect, size: PageSize, dxPt: number, dyPt: number): Rect {
  return clamp({ ...rect, x: rect.x + dxPt / size.width, y: rect.y + dyPt / size.height })
}

/** The least a field can be made by the keyboard, in points. */
const MIN_KEYBOARD_PT = 4

/** Resized by points from its top left corner (Alt+arrows: 1 pt, with Shift 10 pt), never off the page. */
export function resizedBy(rect: Rect, size: PageSize, dwPt: number, dhPt: number): Rect {
  const w = Math.min(Math.max(rect.w + dwPt / size.width, MIN_KEYBOARD_PT / size.width), 1 - rect.x)
  const h = Math.min(Math.max(rect.h + dhPt / size.height, MIN_KEYBOARD_PT / size.height), 1 - rect.y)
  return clamp({ ...rect, w, h })
}

export type Handle = 'nw' | 'ne' | 'sw' | 'se'

/** A corner dragged by (dx, dy) fractions; the opposite corner stays. */
export function resized(rect: Rect, handle: Handle, dx: number, dy: number): Rect {
  const left = handle === 'nw' || handle === 'sw' ? rect.x + dx : rect.x
  const right = handle === 'ne' || handle === 'se' ? rect.x + rect.w + dx : rect.x + rect.w
  const top = handle === 'nw' || handle === 'ne' ? rect.y + dy : rect.y
  const bottom = handle === 'sw' || handle === 'se' ? rect.y + rect.h + dy : rect.y + rect.h
  return spanning({ x: left, y: top }, { x: right, y: bottom })
}

export interface Guides {
  x: number[]
  y: number[]
}

/**
 * Alignment while moving: an edge or the centre of the moved rectangle within `tx`/`ty` (4 px in
 * fractions) of another field's edge or centre snaps onto it, and the line is shown.
 */
export function snapped(rect: Rect, others: Rect[], tx: number, ty: number): { rect: Rect; guides: Guides } {
  const axis = (start: number, size: number, lines: number[], threshold: number) => {
    let best: { shift: number; line: number } | undefined
    for (const line of lines) {
      for (const point of [start, start + size / 2, start + size]) {
        const shift = line - point
        if (Math.abs(shift) <= threshold && (!best || Math.abs(shift) < Math.abs(best.shift)))
          best = { shift, line }
      }
    }
    return best
  }
  const xs = others.flatMap((o) => [o.x, o.x + o.w / 2, o.x + o.w])
  const ys = others.flatMap((o) => [o.y, o.y + o.h / 2, o.y + o.h])
  const sx = axis(rect.x, rect.w, xs, tx)
  const sy = axis(rect.y, rect.h, ys, ty)
  return {
    rect: clamp({ ...rect, x: rect.x + (sx?.shift ?? 0), y: rect.y + (sy?.shift ?? 0) }),
    guides: { x: sx ? [sx.line] : [], y: sy ? [sy.line] : [] },
  }
}

/** The field copied at the same place onto every other page (initials on each page). */
export function onEveryPage(fields: EditorField[], field: EditorField, pageCount: number): EditorField[] {
  const copies: EditorField[] = []
  for (let page = 1; page <= pageCount; page++) {
    if (page === field.page || fields.some((f) => f.name === field.name && f.page === page)) continue
    // The same name: an area of the same field, as the API keeps it (one field, one area per page).
    copies.push({ ...field, key: newKey(), page })
  }
  return [...fields, ...copies]
}

/** What a field is, apart from where its boxes are: shared by every area of one name. */
const GEOMETRY = new Set(['key', 'page', 'x', 'y', 'w', 'h'])

/**
 * A change of one box: where it is changes that box only; what the field is (its name, type, role,
 * options…) changes every area of its name, so they stay one field.
 */
export function withChange(fields: EditorField[], key: string, changes: Partial<EditorField>): EditorField[] {
  const target = fields.find((f) => f.key === key)
  const shared = Object.fromEntries(Object.entries(changes).filter(([name]) => !GEOMETRY.has(name)))
  const sharing = target !== undefined && Object.keys(shared).length > 0
  return fields.map((f) => {
    if (f.key === key) return { ...f, ...changes }
    return sharing && f.name === target.name ? { ...f, ...shared } : f
  })
}

/**
 * The fields in the order of the roles (a stable sort): a template's roles, and so its signers, are
 * in the order their first field appears, so this is how the editor's role order is saved.
 */
export function inRoleOrder(fields: EditorField[], roles: string[]): EditorField[] {
  const rank = (role: string) => {
    const at = roles.indexOf(role)
    return at === -1 ? roles.length : at
  }
  return fields
    .map((field, i) => ({ field, i }))
    .sort((a, b) => rank(a.field.role) - rank(b.field.role) || a.i - b.i)
    .map(({ field }) => field)
}

/** How many fields the boxes make: the areas of one name are one field. */
export const fieldCount = (fields: EditorField[]) => new Set(fields.map((f) => f.name)).size

const round = (n: number) => Math.round(n * 1e6) / 1e6

/**
 * The fields as POST /v1/templates and the console's save take them (documents[].fields): the boxes
 * of one name are one field with an area each, in the order their first box was made.
 */
export function toDeclarations(fields: EditorField[]) {
  const byName = new Map<string, EditorField[]>()
  for (const f of fields) byName.set(f.name, [...(byName.get(f.name) ?? []), f])
  return [...byName.values()].map((boxes) => {
    const f = boxes[0]!
    return {
      name: f.name,
      type: f.type,
      role: f.role,
      required: f.required,
      readonly: f.readonly,
      ...(hasOptions(f.type) ? { options: f.options.filter((o) => o.trim() !== '') } : {}),
      areas: boxes.map((b) => ({ page: b.page, x: round(b.x), y: round(b.y), w: round(b.w), h: round(b.h) })),
    }
  })
}

/** A field as the server declares it (the tags' fields, a copied template's): one or more areas. */
export interface Declaration {
  name: string
  type?: FieldType
  role?: string
  required?: boolean
  readonly?: boolean
  options?: string[]
  areas: ({ page: number } & Rect)[]
}

/** One field of the tag report (the answer of from_html): where its tags landed. */
export interface ReportedField {
  name: string
  type: FieldType
  role: string
  areas: { page: number }[]
}

/**
 * Declared fields as the editor holds them: one editor field per area. A tag repeated in the
 * document gives areas of one name; they are saved under that name again, which the API reads as
 * one field with several areas.
 */
export function fromDeclarations(declarations: Declaration[], defaultRole: string): EditorField[] {
  return declarations.flatMap((d) =>
    d.areas.map((area) => ({
      key: newKey(),
      ...clamp(area),
      page: area.page,
      name: d.name,
      type: d.type ?? 'signature',
      role: d.role ?? defaultRole,
      required: d.required ?? true,
      readonly: d.readonly ?? false,
      options: d.options ?? [],
    })),
  )
}

/** The roles of the fields, in the order their first field appears. */
export const rolesOf = (fields: { role: string }[]): string[] => [...new Set(fields.map((f) => f.role))]
