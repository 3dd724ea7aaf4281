// Reopening the editor resumes its work (issue #33): `?draft=tdr_…` opens that draft as last saved
// (GET /console/api/template_drafts/:id); the editor's first screen offers the member's latest draft
// not yet made a template (GET /console/api/template_drafts), or to discard it and start anew.
import { useEffect, useState } from 'preact/hooks'
import { call, get } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { fill, useTexts } from '../texts.ts'
import { ErrorNote, useAction } from '../ui.tsx'
import { OpeningDraft } from './opening-draft.tsx'
import type { Draft } from './upload.tsx'

export function OpenDraft(props: { draftId: string; onOpened: (draft: Draft) => void }) {
  return (
    <OpeningDraft
      target={props.draftId}
      load={() => get<Draft>(`/console/api/template_drafts/${encodeURIComponent(props.draftId)}`)}
      onLoaded={props.onOpened}
    />
  )
}

export function ResumeOffer({ onResume }: { onResume: (draft: Draft) => void }) {
  const { t, language } = useTexts()
  const [latest, setLatest] = useState<Draft | null>(null)
  useEffect(() => {
    let current = true
    // No offer is no loss: a failed read leaves the upload screen as it is.
    get<{ data: Draft[] }>('/console/api/template_drafts').then(
      (list) => current && setLatest(list.data[0] ?? null),
      () => {},
    )
    return () => {
      current = false
    }
  }, [])
  const discard = useAction((id: string) =>
    call('DELETE', `/console/api/template_drafts/${encodeURIComponent(id)}`),
  )
  if (!latest) return null
  const name = latest.name.trim() || 'Untitled'
  return (
    <section class="panel editor-resume" aria-labelledby="resume-title">
      <h2 id="resume-title">{t.editor_resume_title}</h2>
      <p>{fill(t.editor_resume_body, { name, date: formatDateTime(language, latest.expires_at) })}</p>
      <div class="page-actions">
        <button type="button" class="button primary" onClick={() => onResume(latest)}>
          {fill(t.editor_resume, { name })}
        </button>
        <button
          type="button"
          class="button"
          disabled={discard.busy}
          onClick={async () => {
            if (await discard.run(latest.id)) setLatest(null)
          }}
        >
          {t.editor_discard}
        </button>
      </div>
      <ErrorNote error={discard.error} />
    </section>
  )
}
