// The editor's first step: a PDF, an HTML page or a Word document chosen with the file input or
// dropped on the zone, uploaded once as a draft (POST /console/api/template_drafts) with its own
// content type; its page sizes come back with it and, for HTML and Word, the fields of its tags.
import { useState } from 'preact/hooks'
import { ApiFailure, call } from '../api.ts'
import { DropZone } from '../drop-zone.tsx'
import { useTexts } from '../texts.ts'
import { ErrorNote, useAction } from '../ui.tsx'
import type { Declaration, ReportedField } from './model.ts'

/** What the editor was given: a PDF as it is, a tagged document, or a template to start from. */
export type DraftSource = 'pdf' | 'tags' | 'template'

/** A draft as the console API answers it (docs/console.md#the-editors-work-kept-as-a-draft). */
export interface Draft {
  object: 'template_draft'
  id: string
  /** The template's name as last saved (at first the file's, or the copied template's). */
  name: string
  slug: string
  source: DraftSource
  pages: { width: number; height: number }[]
  expires_at: string
  updated_at: string | null
  fields: Declaration[]
  tag_report: ReportedField[]
}

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** The body's content type by the file's extension (browsers give no type for some of them). */
const KINDS: { pattern: RegExp; type: string; source: DraftSource }[] = [
  { pattern: /\.pdf$/i, type: 'application/pdf', source: 'pdf' },
  { pattern: /\.html?$/i, type: 'text/html; charset=utf-8', source: 'tags' },
  { pattern: /\.docx$/i, type: DOCX_TYPE, source: 'tags' },
]

type PageFormat = 'A4' | 'Letter'

export function Upload({ onUploaded }: { onUploaded: (draft: Draft, source: DraftSource) => void }) {
  const { t } = useTexts()
  const [size, setSize] = useState<PageFormat>('A4')
  const upload = useAction(async (file: File) => {
    const kind = KINDS.find((k) => k.pattern.test(file.name))
    if (!kind) throw new ApiFailure(0, 'unsupported_file', t.editor_unsupported_file)
    const name = file.name.replace(/\.(pdf|html?|docx)$/i, '') || 'Untitled'
    const query = `name=${encodeURIComponent(name)}${kind.source === 'tags' ? `&size=${size}` : ''}`
    const draft = await call<Draft>('POST', `/console/api/template_drafts?${query}`, file, {
      contentType: kind.type,
    })
    return { draft, source: kind.source }
  })
  const take = async (file: File) => {
    const done = await upload.run(file)
    if (done) onUploaded(done.value.draft, done.value.source)
  }
  return (
    <section class="panel editor-upload" aria-labelledby="upload-title">
      <h2 id="upload-title">{t.editor_upload_any_title}</h2>
      <DropZone
        inputId="editor-file"
        accept={`application/pdf,.pdf,text/html,.html,.htm,${DOCX_TYPE},.docx`}
        hint={<p>{t.editor_drop_any_hint}</p>}
        choose={upload.busy ? t.editor_uploading : t.editor_choose_file}
        busy={upload.busy}
        onFile={take}
      >
        <fieldset class="editor-size">
          <legend>{t.editor_page_size}</legend>
          {(['A4', 'Letter'] as const).map((format) => (
            <label key={format} class="check">
              <input
                type="radio"
                name="editor-size"
                value={format}
                checked={size === format}
                onChange={() => setSize(format)}
              />
              {format === 'A4' ? t.editor_size_a4 : t.editor_size_letter}
            </label>
          ))}
        </fieldset>
        <p class="muted small">{t.editor_upload_any_limits}</p>
      </DropZone>
      <ErrorNote error={upload.error} />
    </section>
  )
}
