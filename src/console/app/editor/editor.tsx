// The template editor (/templates/new): upload a PDF (or an HTML or Word document
// whose tags become fields), draw fields on its pages, set their properties and roles, save as a
// template. `/templates/new?from=tpl_…` starts from a copy of a saved template instead of an upload.
// Loaded lazily: none of it is in the first load.
import { useState } from 'preact/hooks'
import type { FieldType } from '../../../lib/field-types.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { PageHeader } from '../ui.tsx'
import { ApiCall } from './api-call.tsx'
import { FromTemplate } from './from-template.tsx'
import { useHistory } from './history.ts'
import { type EditorField, fieldCount, fromDeclarations, inRoleOrder } from './model.ts'
import { PageView } from './page-view.tsx'
import { SaveForm } from './save-form.tsx'
import { TagReport } from './tag-report.tsx'
import { EditorTools } from './tools.tsx'
import { type Draft, type DraftSource, Upload } from './upload.tsx'
import { fieldEdits, useParties, useUndoShortcuts } from './workspace-state.ts'

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

/** The opened document: the tools beside it, its pages with their fields, the save form above. */
function Workspace({ draft, source }: { draft: Draft; source: DraftSource }) {
  const { t } = useTexts()
  // The fields of the tags or of the copied template are the starting point, as if drawn (not undone).
  const history = useHistory<EditorField[]>(fromDeclarations(draft.fields, t.editor_first_party))
  useUndoShortcuts(history)
  const fields = history.value
  const parties = useParties(history, t)
  const [type, setType] = useState<FieldType>('signature')
  const [selected, setSelected] = useState<string | null>(null)
  const [name, setName] = useState(draft.name)
  const [slug, setSlug] = useState('')
  const edits = fieldEdits(history, t, { type, role: parties.role }, setSelected)
  return (
    <div class="editor">
      <EditorTools
        draft={draft}
        history={history}
        parties={parties}
        type={type}
        onType={setType}
        selected={fields.find((f) => f.key === selected)}
        edits={edits}
      />
      <div class="editor-main">
        <SaveForm
          draftId={draft.id}
          name={name}
          slug={slug}
          onName={setName}
          onSlug={setSlug}
          fields={inRoleOrder(fields, parties.roles)}
        />
        {source === 'tags' ? <TagReport report={draft.tag_report} /> : null}
        <p class="muted small">
          {t.editor_pages_count.replace('{n}', String(draft.pages.length))} ·{' '}
          {t.editor_fields_count.replace('{n}', String(fieldCount(fields)))}
        </p>
        <div class="editor-pages">
          {draft.pages.map((size, i) => (
            <PageView
              key={i}
              draftId={draft.id}
              page={i + 1}
              size={size}
              fields={fields.filter((f) => f.page === i + 1)}
              roles={parties.roles}
              selected={selected}
              previewRole={parties.previewRole}
              onSelect={setSelected}
              onDraw={edits.add}
              onChange={(key, rect, final) => edits.change(key, rect, final)}
              onKeyEdit={edits.burst}
              onKeyEditsEnd={edits.settle}
              onDelete={edits.remove}
            />
          ))}
        </div>
        <ApiCall name={name} slug={slug} fields={inRoleOrder(fields, parties.roles)} roles={parties.roles} />
      </div>
    </div>
  )
}
