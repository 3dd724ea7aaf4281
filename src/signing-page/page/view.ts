// The form itself: the document pages with this signer's fields on their areas, and a panel that
// edits one field at a time, counts what is still missing, moves to the next field, and ends with
// the consent and the Sign button. Issue #20: a signature or initials is made once and reused; on a
// narrow screen (a phone, a narrow iframe) the panel stays compact while a field is filled, so the
// document keeps most of the screen, and opens on the consent and Sign once all is filled.
import { ApiFailure, call } from './api.ts'
import { openDecline } from './decline-dialog.ts'
import { h, mount } from './dom.ts'
import { type Draft, isImageField } from './draft.ts'
import { editor } from './editors.ts'
import { type Field, fieldsToFill, isFilled, type SigningForm, type Value } from './form.ts'
import { documentPages, fieldLabel, paintField } from './pages.ts'
import { askForSignature } from './signature-dialog.ts'
import { fill, type Language, type Texts } from './texts.ts'

export interface ViewEvents {
  /** After a successful sign or decline: the page reads the form again (or redirects). */
  finished(kind: 'signed' | 'declined'): void
  /** The form changed under us (not your turn, already final, ended): read it again. */
  stale(): void
}

export interface ViewInput {
  t: Texts
  lang: Language
  form: SigningForm
  draft: Draft
  /** The language picker, for the top bar. */
  picker: HTMLElement
  events: ViewEvents
}

const STALE = ['not_your_turn', 'submitter_already_finalized', 'submission_not_active', 'email_2fa_required']

function initialsOf(name: string | null): string {
  return (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
}

export function signingView(app: Element, { t, lang, form, draft, picker, events }: ViewInput): void {
  const fields = fieldsToFill(form)
  const { values } = draft
  const missing = () => fields.filter((f) => f.required && !isFilled(f, values.get(f.name)))
  const progress = h('p', { class: 'progress', role: 'status' })
  const message = h('p', { class: 'message', role: 'alert' })
  const inner = h('div', { class: 'panel-inner' })
  const panel = h('aside', { class: 'panel', 'aria-label': t.sign }, inner)
  const decline = h('button', { type: 'button', class: 'secondary small' }, t.decline)
  decline.addEventListener('click', () =>
    openDecline(t, decline, { declined: () => events.finished('declined'), stale: events.stale }),
  )
  const title = form.documents.map((d) => d.name).join(', ')
  const header = h(
    'header',
    { class: 'bar' },
    h(
      'div',
      { class: 'bar-inner' },
      h('h1', { class: 'doc-title', tabindex: '-1' }, title),
      progress,
      picker,
      decline,
    ),
  )
  const pages = documentPages(t, lang, form, fields, pick)
  const toggle = h('button', {
    type: 'button',
    class: 'secondary panel-toggle',
    'aria-controls': 'panel-more',
  })
  toggle.addEventListener('click', () => setExpanded(!draft.expanded))

  function paint(field: Field): void {
    const buttons = pages.overlays.get(field.name) ?? []
    paintField(t, lang, buttons, field, values.get(field.name), fields[draft.current] === field)
  }

  function setExpanded(expanded: boolean): void {
    draft.expanded = expanded || fields.length === 0
    panel.classList.toggle('is-collapsed', !draft.expanded)
    toggle.setAttribute('aria-expanded', String(draft.expanded))
    toggle.textContent = draft.expanded ? t.panel_close : t.panel_open
  }

  function updateProgress(): void {
    const left = missing().length
    progress.textContent =
      left === 0 ? t.all_filled : left === 1 ? t.required_left_one : fill(t.required_left, { n: left })
  }

  /** Issue #20: the "Please fill in" error follows the fields as they are filled, and goes once none is left. */
  function updateMissing(): void {
    const left = missing()
    if (left.length === 0) draft.showMissing = false
    message.textContent = draft.showMissing
      ? fill(t.missing_fields, { fields: left.map((f) => fieldLabel(t, f)).join(', ') })
      : ''
  }

  function set(field: Field, value: Value | undefined): void {
    const before = missing().length
    if (value === undefined || value === '') values.delete(field.name)
    else values.set(field.name, value)
    paint(field)
    updateProgress()
    updateMissing()
    // Everything required is in: the panel opens on the consent and Sign.
    if (before > 0 && missing().length === 0) setExpanded(true)
  }

  async function makeImage(field: Field & { type: 'signature' | 'initials' }): Promise<void> {
    const kind = field.type
    const previous = draft.adopted[kind]
    const signature = draft.adopted.signature
    const name = signature?.typed ?? form.submitter.name
    const made = await askForSignature(t, {
      kind,
      label: fieldLabel(t, field),
      suggestion: kind === 'initials' ? initialsOf(name) : (name ?? ''),
      mode: previous?.mode ?? (kind === 'initials' ? signature?.mode : draft.adopted.initials?.mode),
    })
    if (made) {
      draft.adopted[kind] = made
      // A new image replaces the one adopted before wherever it stands, so the document stays consistent.
      for (const other of fields) {
        if (previous && other.type === kind && values.get(other.name) === previous.png) set(other, made.png)
      }
      set(field, made.png)
    }
    // Back to the panel, on the field's control, so a keyboard user carries on from there.
    renderPanel(true)
  }

  function applyAdopted(field: Field & { type: 'signature' | 'initials' }): void {
    const adopted = draft.adopted[field.type]
    if (adopted) set(field, adopted.png)
  }

  /** A field picked on the document: an empty signature or initials takes the adopted image at once. */
  function pick(index: number): void {
    const field = fields[index]
    if (
      field &&
      isImageField(field) &&
      draft.adopted[field.type] &&
      !isFilled(field, values.get(field.name))
    ) {
      applyAdopted(field)
      select(index, false)
      return
    }
    select(index, true)
  }

  function select(index: number, focus: boolean): void {
    draft.current = Math.max(0, Math.min(fields.length - 1, index))
    renderPanel(focus)
    const field = fields[draft.current]
    if (!field) return
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    pages.overlays
      .get(field.name)?.[0]
      ?.scrollIntoView({ block: 'center', behavior: calm ? 'auto' : 'smooth' })
    if (
      focus &&
      isImageField(field) &&
      !draft.adopted[field.type] &&
      !isFilled(field, values.get(field.name))
    ) {
      void makeImage(field)
    }
  }

  function fieldEditor(field: Field): HTMLElement {
    const image = isImageField(field) ? field : null
    return editor({
      t,
      lang,
      field,
      id: `field-input-${draft.current}`,
      value: values.get(field.name),
      set: (value) => {
        set(field, value)
        if (image) renderPanel(true)
      },
      adopted: image ? draft.adopted[image.type] : undefined,
      makeImage: () => image && void makeImage(image),
      applyAdopted: () => {
        if (image) applyAdopted(image)
        renderPanel(true)
      },
    })
  }

  function renderPanel(focus: boolean): void {
    for (const field of fields) paint(field)
    const field = fields[draft.current]
    const id = `field-input-${draft.current}`
    const previous = h(
      'button',
      { type: 'button', class: 'secondary', disabled: draft.current === 0 },
      t.previous,
    )
    previous.addEventListener('click', () => select(draft.current - 1, true))
    const next = h(
      'button',
      { type: 'button', class: 'secondary', disabled: draft.current >= fields.length - 1 },
      t.next,
    )
    next.addEventListener('click', () => select(draft.current + 1, true))
    const sign = h('button', { type: 'button', class: 'primary sign' }, t.sign)
    sign.addEventListener('click', () => submit(sign))
    const download = form.current_pdf_url
      ? h('a', { class: 'download', href: form.current_pdf_url, download: '' }, t.download_document)
      : null
    mount(
      inner,
      field
        ? h(
            'div',
            { class: 'field-head' },
            h('label', { class: 'field-name', for: id }, fieldLabel(t, field)),
            h(
              'span',
              { class: `tag${field.required ? ' tag-required' : ''}` },
              field.required ? t.field_required : t.field_optional,
            ),
            h('span', { class: 'count' }, `${draft.current + 1} / ${fields.length}`),
          )
        : null,
      field ? fieldEditor(field) : null,
      field ? h('div', { class: 'nav-row' }, h('div', { class: 'nav' }, previous, next), toggle) : null,
      message,
      h(
        'div',
        { class: 'panel-more', id: 'panel-more' },
        download,
        h('p', { class: 'consent' }, t.consent),
        sign,
      ),
    )
    if (focus)
      (
        inner.querySelector<HTMLElement>(`#${id}`) ?? inner.querySelector<HTMLElement>('input, select')
      )?.focus()
  }

  async function submit(button: HTMLButtonElement): Promise<void> {
    const left = missing()
    if (left.length > 0) {
      // Issue #20: to the FIRST missing field in reading order, the panel back on the field.
      draft.showMissing = true
      updateMissing()
      setExpanded(false)
      select(fields.indexOf(left[0] as Field), true)
      return
    }
    message.textContent = ''
    button.disabled = true
    button.textContent = t.signing
    try {
      // The page's language goes with the signature: the audit trail quotes the consent in it.
      await call('POST', 'sign', { values: Object.fromEntries(values), language: lang })
      events.finished('signed')
    } catch (failure) {
      button.disabled = false
      button.textContent = t.sign
      const code = failure instanceof ApiFailure ? failure.code : ''
      if (STALE.includes(code)) {
        events.stale()
        return
      }
      message.textContent =
        failure instanceof ApiFailure && failure.status === 422 && failure.message
          ? failure.message
          : code === 'network'
            ? t.error_network
            : t.error_generic
    }
  }

  mount(app, header, pages.element, panel)
  setExpanded(draft.expanded)
  updateProgress()
  updateMissing()
  renderPanel(false)
  app.querySelector<HTMLElement>('.doc-title')?.focus()
}
