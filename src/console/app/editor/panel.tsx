// The editor's side panel: the type to draw, the roles (add, rename), and the selected field's
// properties. Every change goes through the editor's history (one undo step each).
import { useState } from 'preact/hooks'
import { FIELD_TYPES, type FieldType } from '../../../lib/field-types.ts'
import { useTexts } from '../texts.ts'
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
  onRole: (role: string) => void
  onAdd: () => void
  onRename: (from: string, to: string) => void
}) {
  const { t } = useTexts()
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
        </div>
      ))}
      <button type="button" class="button small" onClick={props.onAdd}>
        {t.editor_add_role}
      </button>
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
      <label for="field-name">{t.name}</label>
      <input
        id="field-name"
        type="text"
        maxLength={100}
        value={field.name}
        onChange={(event) => value(event).trim() && props.onChange({ name: value(event).trim() })}
      />
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
