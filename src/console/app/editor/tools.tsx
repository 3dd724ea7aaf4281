// The editor's tool panel: the type of the next field, the roles, add / undo / redo, the preview as
// one signer, and the properties of the selected field.

import type { FieldType } from '../../../lib/field-types.ts'
import { useTexts } from '../texts.ts'
import type { History } from './history.ts'
import { defaultRect, type EditorField, fieldCount, onEveryPage } from './model.ts'
import { Properties, Roles, TypePicker } from './panel.tsx'
import type { Draft } from './upload.tsx'
import type { FieldEdits, Parties } from './workspace-state.ts'

export function EditorTools(props: {
  draft: Draft
  history: History<EditorField[]>
  parties: Parties
  type: FieldType
  onType: (type: FieldType) => void
  selected: EditorField | undefined
  edits: FieldEdits
}) {
  const { t } = useTexts()
  const { draft, history, parties, selected: field, edits } = props
  const previewRole = parties.previewRole
  return (
    <aside class="editor-panel" aria-label={t.editor_tools}>
      <TypePicker type={props.type} onType={props.onType} />
      <Roles
        roles={parties.roles}
        role={parties.role}
        onRole={parties.setRole}
        fieldsOf={(role) => fieldCount(history.value.filter((f) => f.role === role))}
        onAdd={parties.add}
        onRename={parties.rename}
        onMove={parties.move}
        onRemove={parties.remove}
      />
      <EditActions
        history={history}
        onAddField={() => {
          const page = visiblePage()
          return edits.add(page, defaultRect(props.type, draft.pages[page - 1]!))
        }}
      />
      <PreviewAs parties={parties} />
      {field && previewRole === null ? (
        <Properties
          field={field}
          roles={parties.roles}
          pageCount={draft.pages.length}
          onChange={(changes) => edits.change(field.key, changes)}
          onDelete={() => edits.remove(field.key)}
          onEveryPage={() => history.commit(onEveryPage(history.value, field, draft.pages.length))}
        />
      ) : (
        <p class="muted small">{previewRole === null ? t.editor_draw_hint : t.editor_preview_hint}</p>
      )}
    </aside>
  )
}

/** The page most visible in the window: where "Add field" puts its field. */
function visiblePage(): number {
  let best = 1
  let bestHeight = -1
  for (const element of document.querySelectorAll<HTMLElement>('.editor-page')) {
    const r = element.getBoundingClientRect()
    const height = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)
    if (height > bestHeight) {
      bestHeight = height
      best = Number(element.dataset.page)
    }
  }
  return best
}

function EditActions(props: { history: History<EditorField[]>; onAddField: () => EditorField }) {
  const { t } = useTexts()
  const { history } = props
  return (
    <div class="editor-actions">
      <button
        type="button"
        class="button small"
        onClick={() => {
          const added = props.onAddField()
          // Keyboard users continue on the new field: arrows move it, Delete removes it.
          requestAnimationFrame(() =>
            document.querySelector<HTMLElement>(`[data-key="${added.key}"]`)?.focus(),
          )
        }}
      >
        {t.editor_add_field}
      </button>
      <button type="button" class="button small" disabled={!history.canUndo} onClick={history.undo}>
        {t.editor_undo}
      </button>
      <button type="button" class="button small" disabled={!history.canRedo} onClick={history.redo}>
        {t.editor_redo}
      </button>
    </div>
  )
}

/** Shows the pages as one signer will see them (their fields only), or as drawn. */
function PreviewAs({ parties }: { parties: Parties }) {
  const { t } = useTexts()
  return (
    <>
      <label for="preview-role">{t.editor_preview_as}</label>
      <select
        id="preview-role"
        value={parties.previewRole ?? ''}
        onChange={(event) => parties.setPreviewRole((event.currentTarget as HTMLSelectElement).value || null)}
      >
        <option value="">{t.editor_preview_none}</option>
        {parties.roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </>
  )
}
