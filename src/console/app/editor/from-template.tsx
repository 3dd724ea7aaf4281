// "Duplicate and edit": a saved template cannot change (the API has no PATCH), so the editor opens
// a new draft holding a copy of its PDF and its fields (POST
// /console/api/template_drafts/from_template/:id); saving it makes another template.
import { call } from '../api.ts'
import { OpeningDraft } from './opening-draft.tsx'
import type { Draft, DraftSource } from './upload.tsx'

export function FromTemplate(props: {
  templateId: string
  onOpened: (draft: Draft, source: DraftSource) => void
}) {
  const path = `/console/api/template_drafts/from_template/${encodeURIComponent(props.templateId)}`
  return (
    <OpeningDraft
      target={props.templateId}
      load={() => call<Draft>('POST', path)}
      onLoaded={(draft) => props.onOpened(draft, 'template')}
    />
  )
}
