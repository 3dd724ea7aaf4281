// The editor's first step: a PDF chosen with the file input or dropped on the zone, uploaded once
// as a draft (POST /console/api/template_drafts); its page sizes come back with it.
import { useState } from 'preact/hooks'
import { call } from '../api.ts'
import { useTexts } from '../texts.ts'
import { ErrorNote, useAction } from '../ui.tsx'

export interface Draft {
  object: 'template_draft'
  id: string
  name: string
  pages: { width: number; height: number }[]
  expires_at: string
}

export function Upload({ onUploaded }: { onUploaded: (draft: Draft) => void }) {
  const { t } = useTexts()
  const [over, setOver] = useState(false)
  const upload = useAction((file: File) =>
    call<Draft>(
      'POST',
      `/console/api/template_drafts?name=${encodeURIComponent(file.name.replace(/\.pdf$/i, '') || 'Untitled')}`,
      file,
      { contentType: 'application/pdf' },
    ),
  )
  const take = async (file: File | undefined) => {
    if (!file) return
    const done = await upload.run(file)
    if (done) onUploaded(done.value)
  }
  return (
    <section class="panel editor-upload" aria-labelledby="upload-title">
      <h2 id="upload-title">{t.editor_upload_title}</h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the file input inside is the way for keyboards */}
      <div
        class={over ? 'drop-zone over' : 'drop-zone'}
        onDragOver={(event) => {
          event.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault()
          setOver(false)
          take(event.dataTransfer?.files[0])
        }}
      >
        <p>{t.editor_drop_hint}</p>
        <label class="button primary" for="editor-file">
          {upload.busy ? t.editor_uploading : t.editor_choose_pdf}
        </label>
        <input
          id="editor-file"
          class="visually-hidden"
          type="file"
          accept="application/pdf,.pdf"
          disabled={upload.busy}
          onChange={(event) => take((event.currentTarget as HTMLInputElement).files?.[0])}
        />
        <p class="muted small">{t.editor_upload_limits}</p>
      </div>
      <ErrorNote error={upload.error} />
    </section>
  )
}
