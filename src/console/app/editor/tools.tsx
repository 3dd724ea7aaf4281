// The editor's tool panel: the type of the next field, the roles, add / undo / redo, the preview as
// one signer (the pages filtered here, or the real signing page on a test copy), and the properties
// of the selected field.

import { useState } from 'preact/hooks'
import type { FieldType } from '../../../lib/field-types.ts'
import { call } from '../api.ts'
import { fill, useTexts } from '../texts.ts'
import { ErrorNote, useAction } from '../ui.tsx'
import type { History } from './history.ts'
import { type EditorField, fieldCount, freeRect, onEveryPage, toDeclarations } from './model.ts'
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
  /** The fields in the roles' order, as the save sends them (the preview copies them). */
  ordered: EditorField[]
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
          const onPage = history.value.filter((f) => f.page === page)
          return edits.add(page, freeRect(props.type, draft.pages[page - 1]!, onPage))
        }}
      />
      <PreviewAs parties={parties} />
      <TrySigning draftId={draft.id} fields={props.ordered} role={previewRole ?? parties.role} />
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

interface Preview {
  signing_url: string
}

/**
 * The real signing page of one role, in a new tab, on a test-environment copy of the fields as drawn
 * now that sends nothing (docs/console.md#preview-as-a-signer). The tab is opened at the click (a
 * tab opened after the answer would be a pop-up the browser may block) and sent to the page once it
 * is made; the link stays for opening it again.
 */
function TrySigning(props: { draftId: string; fields: EditorField[]; role: string }) {
  const { t } = useTexts()
  const [made, setMade] = useState<{ body: string; url: string } | undefined>(undefined)
  const preview = useAction((body: object) =>
    call<Preview>('POST', `/console/api/template_drafts/${props.draftId}/preview`, body),
  )
  const hasFields = props.fields.some((f) => f.role === props.role)
  const body = { fields: toDeclarations(props.fields), role: props.role }
  const current = made?.body === JSON.stringify(body) ? made.url : null
  return (
    <div class="editor-try">
      <button
        type="button"
        class="button small"
        disabled={!hasFields || preview.busy}
        aria-describedby="try-signing-hint"
        onClick={async () => {
          const tab = window.open('', '_blank')
          const done = await preview.run(body)
          if (!done) {
            tab?.close()
            return
          }
          setMade({ body: JSON.stringify(body), url: done.value.signing_url })
          if (tab) {
            tab.opener = null
            tab.location.href = done.value.signing_url
          }
        }}
      >
        {preview.busy ? t.editor_try_busy : fill(t.editor_try, { role: props.role })}
      </button>
      <p class="muted small" id="try-signing-hint">
        {hasFields ? t.editor_try_hint : fill(t.editor_try_no_field, { role: props.role })}
      </p>
      {current ? (
        <p class="small">
          <a href={current} target="_blank" rel="noopener">
            {fill(t.editor_try_again, { role: props.role })}
          </a>
        </p>
      ) : null}
      <ErrorNote error={preview.error} />
    </div>
  )
}
