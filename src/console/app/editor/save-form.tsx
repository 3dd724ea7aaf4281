// Saving the drawing as a template: name and slug, POST /console/api/template_drafts/:id/template
// with one Idempotency-Key per attempt (the same body sent again — a double click, a retry after a
// lost answer — reuses it, so one template is made); 409 slug_already_exists shown on the slug.
import { useRef } from 'preact/hooks'
import { call, newIdempotencyKey } from '../api.ts'
import { navigate } from '../router.ts'
import { useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import { ErrorNote, useAction, useToast } from '../ui.tsx'
import { type EditorField, toDeclarations } from './model.ts'

export function SaveForm(props: {
  draftId: string
  name: string
  slug: string
  fields: EditorField[]
  onName: (name: string) => void
  onSlug: (slug: string) => void
  /** The template is made: the editor has nothing left to keep (before it navigates away). */
  onSaved: () => void
}) {
  const { t } = useTexts()
  const toast = useToast()
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined)
  const inFlight = useRef(false)
  const save = useAction((body: object) => {
    const text = JSON.stringify(body)
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newIdempotencyKey() }
    return call<Template>('POST', `/console/api/template_drafts/${props.draftId}/template`, body, {
      idempotencyKey: attempt.current.key,
    })
  })
  const slugError = save.error?.code === 'slug_already_exists' ? save.error : undefined
  const otherError = slugError ? undefined : save.error
  return (
    <form
      class="panel editor-save"
      onSubmit={async (event) => {
        event.preventDefault()
        if (inFlight.current) return
        inFlight.current = true
        const body = {
          name: props.name.trim() || 'Untitled',
          ...(props.slug.trim() ? { slug: props.slug.trim() } : {}),
          fields: toDeclarations(props.fields),
        }
        const done = await save.run(body)
        inFlight.current = false
        if (!done) return
        toast(t.editor_saved.replace('{name}', done.value.name))
        props.onSaved()
        navigate('/templates')
      }}
    >
      <div class="editor-save-fields">
        <div>
          <label for="template-name">{t.editor_template_name}</label>
          <input
            id="template-name"
            required
            maxLength={255}
            value={props.name}
            onInput={(e) => props.onName(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="template-slug">{t.slug}</label>
          <input
            id="template-slug"
            maxLength={100}
            pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*"
            value={props.slug}
            aria-invalid={slugError ? 'true' : undefined}
            aria-describedby={slugError ? 'slug-error' : 'slug-hint'}
            onInput={(e) => {
              props.onSlug(e.currentTarget.value)
              if (slugError) save.clear()
            }}
          />
          {slugError ? (
            <p class="field-error" id="slug-error" role="alert">
              {t.editor_slug_taken}
            </p>
          ) : (
            <p class="muted small" id="slug-hint">
              {t.editor_slug_hint}
            </p>
          )}
        </div>
        <button type="submit" class="button primary" disabled={save.busy || props.fields.length === 0}>
          {save.busy ? t.editor_saving : t.editor_save}
        </button>
      </div>
      {props.fields.length === 0 ? <p class="muted small">{t.editor_no_fields}</p> : null}
      <ErrorNote error={otherError} />
    </form>
  )
}
