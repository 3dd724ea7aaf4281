// The template editor (/templates/new): upload a PDF (or an HTML or Word document
// whose tags become fields), draw fields on its pages, set their properties and roles, save as a
// template. `/templates/new?from=tpl_…` starts from a copy of a saved template instead of an upload.
// Once a document is open the address names its draft (`?draft=tdr_…`): the work is saved on the
// draft as it goes (draft-autosave.ts), so Back, a reload or a later visit resumes it; leaving with
// changes not yet saved as a template asks first (leave-guard.tsx). Loaded lazily: none of it is in
// the first load.
import { useState } from 'preact/hooks'
import type { FieldType } from '../../../lib/field-types.ts'
import { navigate } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { PageHeader } from '../ui.tsx'
import { ApiCall } from './api-call.tsx'
import { useDraftAutosave } from './draft-autosave.ts'
import { FromTemplate } from './from-template.tsx'
import { useHistory } from './history.ts'
import { DraftStatus, useEditorLeaveGuard } from './leave-guard.tsx'
import { type EditorField, fieldCount, fromDeclarations, inRoleOrder, toDeclarations } from './model.ts'
import { PageView } from './page-view.tsx'
import { OpenDraft, ResumeOffer } from './resume.tsx'
import { SaveForm } from './save-form.tsx'
import { TagReport } from './tag-report.tsx'
import { EditorTools } from './tools.tsx'
import { type Draft, Upload } from './upload.tsx'
import { fieldEdits, useParties, useUndoShortcuts } from './workspace-state.ts'

export function TemplateEditor(_props: PageProps) {
  const { t } = useTexts()
  const [opened, setOpened] = useState<Draft>()
  const search = new URLSearchParams(location.search)
  const from = search.get('from')
  const draftId = search.get('draft')
  const onOpened = (draft: Draft) => {
    setOpened(draft)
    // The address names the draft: Back to it, a reload or a bookmark resumes the work.
    navigate(`/templates/new?draft=${encodeURIComponent(draft.id)}`, true)
  }
  const copying = opened ? opened.source === 'template' : Boolean(from)
  return (
    <>
      <p class="breadcrumb">
        <Link to="/templates">← {t.back_to_templates}</Link>
      </p>
      <PageHeader title={copying ? t.editor_duplicate_title : t.new_template} />
      {opened ? (
        <Workspace key={opened.id} draft={opened} />
      ) : draftId ? (
        <OpenDraft draftId={draftId} onOpened={onOpened} />
      ) : from ? (
        <FromTemplate templateId={from} onOpened={onOpened} />
      ) : (
        <>
          <ResumeOffer onResume={onOpened} />
          <Upload onUploaded={onOpened} />
        </>
      )}
    </>
  )
}

/** The opened document: the tools beside it, its pages with their fields, the save form above. */
function Workspace({ draft }: { draft: Draft }) {
  const { t } = useTexts()
  // The draft's fields (from the tags, the copied template, or the work saved) are the starting
  // point, as if drawn (not undone).
  const history = useHistory<EditorField[]>(fromDeclarations(draft.fields, t.editor_first_party))
  useUndoShortcuts(history)
  const fields = history.value
  const parties = useParties(history, t)
  const [type, setType] = useState<FieldType>('signature')
  const [selected, setSelected] = useState<string | null>(null)
  const [name, setName] = useState(draft.name)
  const [slug, setSlug] = useState(draft.slug)
  const edits = fieldEdits(history, t, { type, role: parties.role }, setSelected)
  // In the roles' order, as the save sends them: a resumed draft lists its roles in that order.
  const ordered = inRoleOrder(fields, parties.roles)
  const work = { name, slug, fields: toDeclarations(ordered) }
  const [opened] = useState(() => work)
  const autosave = useDraftAutosave(draft.id, work, opened)
  const leave = useEditorLeaveGuard(JSON.stringify(work) !== JSON.stringify(opened), autosave)
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
        ordered={ordered}
      />
      <div class="editor-main">
        <SaveForm
          draftId={draft.id}
          name={name}
          slug={slug}
          onName={setName}
          onSlug={setSlug}
          fields={ordered}
          onSaved={leave.release}
        />
        <DraftStatus status={autosave.status} />
        {draft.source === 'tags' ? <TagReport report={draft.tag_report} /> : null}
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
        <ApiCall name={name} slug={slug} fields={ordered} roles={parties.roles} />
      </div>
      {leave.dialog}
    </div>
  )
}
