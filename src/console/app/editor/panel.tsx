// The editor's side panel: the type to draw, the roles (add, rename, move, remove), and the selected field's
// properties. Every change goes through the editor's history (one undo step each).
import { useEffect, useRef, useState } from 'preact/hooks'
import { FIELD_TYPES, type FieldType } from '../../../lib/field-types.ts'
import { fill, useTexts } from '../texts.ts'
import { Confirm } from '../ui.tsx'
import { type EditorField, hasOptions } from './model.ts'

export function TypePicker(props: { type: FieldType; onType: (type: FieldType) => void }) {
  const { t } = useTexts()
  return (
    <fieldset class="editor-types">
      <legend>{t.editor_field_type}</legend>
      {FIELD_TYPES.map((type) => (
        <label key={type} class={props.type === type ? 'type-option checked' : 'type-option'}>
          <input
            type="radio"
            name="editor-type"
            value={type}
            checked={props.type === type}
            onChange={() => props.onType(type)}
          />
          {t[`type_${type}`]}
        </label>
      ))}
    </fieldset>
  )
}

export function Roles(props: {
  roles: string[]
  role: string
  /** How many fields each role has: removing a role with fields asks first. */
  fieldsOf: (role: string) => number
  onRole: (role: string) => void
  onAdd: () => void
  onRename: (from: string, to: string) => void
  onMove: (role: string, by: -1 | 1) => void
  onRemove: (role: string) => void
}) {
  const { t } = useTexts()
  const [removing, setRemoving] = useState<string | null>(null)
  const last = props.roles.length - 1
  return (
    <fieldset class="editor-roles">
      <legend>{t.editor_roles}</legend>
      {props.roles.map((role, i) => (
        <div key={`${i}`} class="role-row">
          <input
            type="radio"
            name="editor-role"
            id={`role-pick-${i}`}
            checked={props.role === role}
            onChange={() => props.onRole(role)}
            aria-label={t.editor_draw_for.replace('{role}', role)}
          />
          <span class={`role-swatch role-${i % 6}`} aria-hidden="true" />
          <RoleName role={role} index={i} onRename={(to) => props.onRename(role, to)} taken={props.roles} />
          <span class="role-actions">
            <button
              type="button"
              class="button small icon"
              disabled={i === 0}
              aria-label={fill(t.editor_role_up, { role })}
              title={fill(t.editor_role_up, { role })}
              onClick={() => props.onMove(role, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              class="button small icon"
              disabled={i === last}
              aria-label={fill(t.editor_role_down, { role })}
              title={fill(t.editor_role_down, { role })}
              onClick={() => props.onMove(role, 1)}
            >
              ↓
            </button>
            <button
              type="button"
              class="button small icon danger"
              disabled={last === 0}
              aria-label={fill(t.editor_role_remove, { role })}
              title={fill(t.editor_role_remove, { role })}
              onClick={() => (props.fieldsOf(role) > 0 ? setRemoving(role) : props.onRemove(role))}
            >
              ×
            </button>
          </span>
        </div>
      ))}
      <button type="button" class="button small" onClick={props.onAdd}>
        {t.editor_add_role}
      </button>
      {removing !== null ? (
        <Confirm
          title={fill(t.editor_role_remove_title, { role: removing })}
          body={<p>{fill(t.editor_role_remove_body, { n: props.fieldsOf(removing) })}</p>}
          confirm={t.editor_role_remove_confirm}
          danger
          onConfirm={async () => {
            props.onRemove(removing)
            return true
          }}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </fieldset>
  )
}

/** A role's name, renamed when the input is left (an empty or taken name is refused). */
function RoleName(props: { role: string; index: number; taken: string[]; onRename: (to: string) => void }) {
  const { t } = useTexts()
  const [text, setText] = useState(props.role)
  return (
    <input
      type="text"
      class="role-name"
      value={text}
      maxLength={100}
      aria-label={t.editor_role_name.replace('{n}', String(props.index + 1))}
      onInput={(event) => setText((event.currentTarget as HTMLInputElement).value)}
      onBlur={() => {
        const to = text.trim()
        if (to && to !== props.role && !props.taken.includes(to)) props.onRename(to)
        else setText(props.role)
      }}
    />
  )
}

/**
 * The field's name as typed, kept here until it is committed (Enter, or leaving the box): the
 * editor re-renders while one types (its draft is saved 0.7 s after each change), and a box
 * bound to the saved name would put the old name back under the cursor.
 */
/**
 * The name as typed stays in its box until committed (Enter or leaving it). Keyed by the field (its
 * caller passes `key={field.key}`), so selecting another field mounts an input holding that field's
 * name from its first frame. A change of the name from elsewhere (the editor numbering a field it
 * just drew, an undo) is shown only while the box is not being typed in: taken while typing, it
 * put the old name back under the keyboard, and the rename was lost or appended to it.
 */
function FieldName(props: { field: EditorField; onRename: (name: string) => void }) {
  const { field } = props
  const [text, setText] = useState(field.name)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (input.current !== document.activeElement) setText(field.name)
  }, [field.name])
  return (
    <input
      ref={input}
      id="field-name"
      type="text"
      maxLength={100}
      value={text}
      onInput={(event) => setText((event.currentTarget as HTMLInputElement).value)}
      onChange={(event) => {
        const to = (event.currentTarget as HTMLInputElement).value.trim()
        if (to && to !== field.name) props.onRename(to)
        else setText(field.name)
      }}
    />
  )
}

export function Properties(props: {
  field: EditorField
  roles: string[]
  pageCount: number
  onChange: (changes: Partial<EditorField>) => void
  onDelete: () => void
  onEveryPage: () => void
}) {
  const { t } = useTexts()
  const { field } = props
  const value = (event: Event) => (event.currentTarget as HTMLInputElement).value
  return (
    <section class="editor-properties" aria-labelledby="properties-title">
      <h2 id="properties-title">{t.editor_properties}</h2>
      <label for="field-name">{t.editor_field_name}</label>
      <FieldName key={field.key} field={field} onRename={(name) => props.onChange({ name })} />
      <label for="field-type">{t.editor_field_type}</label>
      <select
        id="field-type"
        value={field.type}
        onChange={(event) => props.onChange({ type: value(event) as FieldType })}
      >
        {FIELD_TYPES.map((type) => (
          <option key={type} value={type}>
            {t[`type_${type}`]}
          </option>
        ))}
      </select>
      <label for="field-role">{t.editor_role}</label>
      <select id="field-role" value={field.role} onChange={(event) => props.onChange({ role: value(event) })}>
        {props.roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      <label class="check">
        <input
          type="checkbox"
          checked={field.required}
          onChange={(event) =>
            props.onChange({ required: (event.currentTarget as HTMLInputElement).checked })
          }
        />
        {t.editor_required}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={field.readonly}
          onChange={(event) =>
            props.onChange({ readonly: (event.currentTarget as HTMLInputElement).checked })
          }
        />
        {t.editor_readonly}
      </label>
      {hasOptions(field.type) ? (
        <>
          <label for="field-options">{t.editor_options}</label>
          <textarea
            id="field-options"
            rows={4}
            value={field.options.join('\n')}
            onChange={(event) =>
              props.onChange({ options: (event.currentTarget as HTMLTextAreaElement).value.split('\n') })
            }
          />
        </>
      ) : null}
      <p class="muted small">{t.editor_keyboard_hint}</p>
      <div class="editor-property-actions">
        {props.pageCount > 1 ? (
          <button type="button" class="button small" onClick={props.onEveryPage}>
            {t.editor_every_page}
          </button>
        ) : null}
        <button type="button" class="button small danger" onClick={props.onDelete}>
          {t.delete}
        </button>
      </div>
    </section>
  )
}
