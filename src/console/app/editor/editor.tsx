// The template editor (/templates/new, issue #23 item 3): upload a PDF (or an HTML or Word document
// whose tags become fields), draw fields on its pages, set their properties and roles, save as a
// template. `/templates/new?from=tpl_…` starts from a copy of a saved template instead of an upload.
// Loaded lazily: none of it is in the first load.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { PageHeader } from '../ui.tsx'
import { ApiCall } from './api-call.tsx'
import { FromTemplate } from './from-template.tsx'
import { useHistory } from './history.ts'
import {
  defaultRect,
  type EditorField,
  type FieldType,
  fromDeclarations,
  hasOptions,
  newKey,
  nextName,
  onEveryPage,
  type Rect,
  rolesOf,
} from './model.ts'
import { PageView } from './page-view.tsx'
import { Properties, Roles, TypePicker } from './panel.tsx'
import { SaveForm } from './save-form.tsx'
import { TagReport } from './tag-report.tsx'
import { type Draft, type DraftSource, Upload } from './upload.tsx'

export function TemplateEditor(_props: PageProps) {
  const { t } = useTexts()
  const [opened, setOpened] = useState<{ draft: Draft; source: DraftSource }>()
  const from = new URLSearchParams(location.search).get('from')
  const onOpened = (draft: Draft, source: DraftSource) => setOpened({ draft, source })
  return (
    <>
      <p class="breadcrumb">
        <Link to="/templates">← {t.back_to_templates}</Link>
      </p>
      <PageHeader title={from ? t.editor_duplicate_title : t.new_template} />
      {opened ? (
        <Workspace draft={opened.draft} source={opened.source} />
      ) : from ? (
        <FromTemplate templateId={from} onOpened={onOpened} />
      ) : (
        <Upload onUploaded={onOpened} />
      )}
    </>
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

function Workspace({ draft, source }: { draft: Draft; source: DraftSource }) {
  const { t } = useTexts()
  // The fields of the tags or of the copied template are the starting point, as if drawn (not undone).
  const history = useHistory<EditorField[]>(fromDeclarations(draft.fields, t.editor_first_party))
  const fields = history.value
  const [roles, setRoles] = useState<string[]>(() => {
    const named = rolesOf(history.value)
    return named.length > 0 ? named : [t.editor_first_party]
  })
  const [role, setRole] = useState(roles[0]!)
  const [type, setType] = useState<FieldType>('signature')
  const [selected, setSelected] = useState<string | null>(null)
  const [previewRole, setPreviewRole] = useState<string | null>(null)
  const [name, setName] = useState(draft.name)
  const [slug, setSlug] = useState('')
  const latest = useRef(history)
  latest.current = history

  useEffect(() => {
    // Ctrl/Cmd+Z undoes, with Shift (or Ctrl+Y) redoes; text inputs keep their own undo.
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

  const label = (fieldType: FieldType) => t[`type_${fieldType}`]
  const add = (page: number, rect: Rect) => {
    const field: EditorField = {
      key: newKey(),
      page,
      ...rect,
      name: nextName(fields, label(type)),
      type,
      role,
      required: true,
      readonly: false,
      options: hasOptions(type)
        ? [t.editor_option_n.replace('{n}', '1'), t.editor_option_n.replace('{n}', '2')]
        : [],
    }
    history.commit([...fields, field])
    setSelected(field.key)
    return field
  }
  const change = (key: string, changes: Partial<EditorField>, final = true) => {
    const next = fields.map((f) => (f.key === key ? { ...f, ...changes } : f))
    if (final) {
      history.preview(next)
      history.settle()
    } else history.preview(next)
  }
  const remove = (key: string) => {
    history.commit(fields.filter((f) => f.key !== key))
    setSelected(null)
  }
  const field = fields.find((f) => f.key === selected)

  return (
    <div class="editor">
      <aside class="editor-panel" aria-label={t.editor_tools}>
        <TypePicker type={type} onType={setType} />
        <Roles
          roles={roles}
          role={role}
          onRole={setRole}
          onAdd={() => {
            let n = roles.length + 1
            while (roles.includes(t.editor_party_n.replace('{n}', String(n)))) n++
            const added = t.editor_party_n.replace('{n}', String(n))
            setRoles([...roles, added])
            setRole(added)
          }}
          onRename={(from, to) => {
            setRoles(roles.map((r) => (r === from ? to : r)))
            if (role === from) setRole(to)
            if (previewRole === from) setPreviewRole(to)
            history.commit(fields.map((f) => (f.role === from ? { ...f, role: to } : f)))
          }}
        />
        <div class="editor-actions">
          <button
            type="button"
            class="button small"
            onClick={() => {
              const page = visiblePage()
              const added = add(page, defaultRect(type, draft.pages[page - 1]!))
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
        <label for="preview-role">{t.editor_preview_as}</label>
        <select
          id="preview-role"
          value={previewRole ?? ''}
          onChange={(event) => setPreviewRole((event.currentTarget as HTMLSelectElement).value || null)}
        >
          <option value="">{t.editor_preview_none}</option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {field && previewRole === null ? (
          <Properties
            field={field}
            roles={roles}
            pageCount={draft.pages.length}
            onChange={(changes) => change(field.key, changes)}
            onDelete={() => remove(field.key)}
            onEveryPage={() => history.commit(onEveryPage(fields, field, draft.pages.length))}
          />
        ) : (
          <p class="muted small">{previewRole === null ? t.editor_draw_hint : t.editor_preview_hint}</p>
        )}
      </aside>
      <div class="editor-main">
        <SaveForm
          draftId={draft.id}
          name={name}
          slug={slug}
          onName={setName}
          onSlug={setSlug}
          fields={fields}
        />
        {source === 'tags' ? <TagReport report={draft.tag_report} /> : null}
        <p class="muted small">
          {t.editor_pages_count.replace('{n}', String(draft.pages.length))} ·{' '}
          {t.editor_fields_count.replace('{n}', String(fields.length))}
        </p>
        <div class="editor-pages">
          {draft.pages.map((size, i) => (
            <PageView
              key={i}
              draftId={draft.id}
              page={i + 1}
              size={size}
              fields={fields.filter((f) => f.page === i + 1)}
              roles={roles}
              selected={selected}
              previewRole={previewRole}
              onSelect={setSelected}
              onDraw={add}
              onChange={(key, rect, final) => change(key, rect, final)}
              onDelete={remove}
            />
          ))}
        </div>
        <ApiCall name={name} slug={slug} fields={fields} roles={roles} />
      </div>
    </div>
  )
}
