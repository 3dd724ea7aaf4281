// The editor workspace's state beside its undo history: the roles (the one new fields get, the one
// the pages are previewed as), the field edits, and the keyboard shortcuts of undo and redo.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { FieldType } from '../../../lib/field-types.ts'
import type { Texts } from '../texts.ts'
import type { History } from './history.ts'
import { type EditorField, hasOptions, newKey, nextName, type Rect, rolesOf, withChange } from './model.ts'

/** Ctrl/Cmd+Z undoes, with Shift (or Ctrl+Y) redoes; text inputs keep their own undo. */
export function useUndoShortcuts(history: History<EditorField[]>) {
  const latest = useRef(history)
  latest.current = history
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement
      if (target.closest('input, textarea, select')) return
      if (!(event.ctrlKey || event.metaKey)) return
      const key = event.key.toLowerCase()
      if (key === 'z' && !event.shiftKey) latest.current.undo()
      else if ((key === 'z' && event.shiftKey) || key === 'y') latest.current.redo()
      else return
      event.preventDefault()
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
}

export type Parties = ReturnType<typeof useParties>

/**
 * The roles of the template: the one new fields get, the one the pages are previewed as; added,
 * renamed, moved and removed. The order is the editor's (saved through `inRoleOrder`); a role whose
 * fields an undo brought back is listed again, at the end.
 */
export function useParties(history: History<EditorField[]>, t: Texts) {
  const [listed, setRoles] = useState<string[]>(() => {
    const named = rolesOf(history.value)
    return named.length > 0 ? named : [t.editor_first_party]
  })
  const roles = [...listed, ...rolesOf(history.value).filter((r) => !listed.includes(r))]
  const [role, setRole] = useState(roles[0]!)
  const [previewRole, setPreviewRole] = useState<string | null>(null)
  const add = () => {
    let n = roles.length + 1
    while (roles.includes(t.editor_party_n.replace('{n}', String(n)))) n++
    const added = t.editor_party_n.replace('{n}', String(n))
    setRoles([...roles, added])
    setRole(added)
  }
  const rename = (from: string, to: string) => {
    setRoles(roles.map((r) => (r === from ? to : r)))
    if (role === from) setRole(to)
    if (previewRole === from) setPreviewRole(to)
    history.commit(history.value.map((f) => (f.role === from ? { ...f, role: to } : f)))
  }
  /** One place up (-1) or down (+1). */
  const move = (which: string, by: -1 | 1) => {
    const from = roles.indexOf(which)
    const to = from + by
    if (from === -1 || to < 0 || to >= roles.length) return
    const next = [...roles]
    ;[next[from], next[to]] = [next[to]!, next[from]!]
    setRoles(next)
  }
  /** The role and its fields (one undo step brings the fields back); the last role stays. */
  const remove = (which: string) => {
    if (roles.length < 2) return
    const rest = roles.filter((r) => r !== which)
    setRoles(rest)
    if (role === which) setRole(rest[0]!)
    if (previewRole === which) setPreviewRole(null)
    history.commit(history.value.filter((f) => f.role !== which))
  }
  return { roles, role, setRole, previewRole, setPreviewRole, add, rename, move, remove }
}

export type FieldEdits = ReturnType<typeof fieldEdits>

/** Drawing, changing and removing fields, each a step of the undo history (a drag is one step). */
export function fieldEdits(
  history: History<EditorField[]>,
  t: Texts,
  drawing: { type: FieldType; role: string },
  select: (key: string | null) => void,
) {
  const fields = history.value
  const { type, role } = drawing
  const add = (page: number, rect: Rect) => {
    const field: EditorField = {
      key: newKey(),
      page,
      ...rect,
      name: nextName(fields, t[`type_${type}`]),
      type,
      role,
      required: true,
      readonly: false,
      options: hasOptions(type)
        ? [t.editor_option_n.replace('{n}', '1'), t.editor_option_n.replace('{n}', '2')]
        : [],
    }
    history.commit([...fields, field])
    select(field.key)
    return field
  }
  const change = (key: string, changes: Partial<EditorField>, final = true) => {
    const next = withChange(fields, key, changes)
    if (final) {
      history.preview(next)
      history.settle()
    } else history.preview(next)
  }
  /** A key press that nudges or resizes `key`: one undo step with the presses before and after it. */
  const burst = (key: string, rect: Rect) =>
    history.burst(
      fields.map((f) => (f.key === key ? { ...f, ...rect } : f)),
      key,
    )
  const remove = (key: string) => {
    history.commit(fields.filter((f) => f.key !== key))
    select(null)
  }
  return { add, change, burst, settle: history.settle, remove }
}
