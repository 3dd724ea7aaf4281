// "Duplicate and edit": a saved template cannot change (the API has no PATCH), so the editor opens
// a new draft holding a copy of its PDF and its fields (POST
// /console/api/template_drafts/from_template/:id); saving it makes another template.
import { useEffect } from 'preact/hooks'
import { call } from '../api.ts'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { ErrorNote, Loading, useAction } from '../ui.tsx'
import type { Draft, DraftSource } from './upload.tsx'

export function FromTemplate(props: {
  templateId: string
  onOpened: (draft: Draft, source: DraftSource) => void
}) {
  const { t } = useTexts()
  const open = useAction(() =>
    call<Draft>('POST', `/console/api/template_drafts/from_template/${encodeURIComponent(props.templateId)}`),
  )
  useEffect(() => {
    open.run().then((done) => done && props.onOpened(done.value, 'template'))
  }, [props.templateId])
  if (!open.error) return <Loading />
  return (
    <section class="panel">
      <ErrorNote error={open.error} />
      <p>
        <Link to="/templates/new">{t.editor_start_blank}</Link>
      </p>
    </section>
  )
}
