// The pieces of the signing view that only show things: the top bar, the current field's head,
// previous / next, and the end of the panel (the download, the consent and Sign).
import { h } from './dom.ts'
import { type Field, type SigningForm, titleOf } from './form.ts'
import { fieldLabel } from './pages.ts'
import type { Texts } from './texts.ts'

/** The submission's name, how many fields are left, the language picker and Decline. */
export function topBar(form: SigningForm, progress: HTMLElement, picker: HTMLElement, decline: HTMLElement) {
  const title = titleOf(form)
  return h(
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
}

/**
 * The field's name (the label of its control `id`), required or optional, whether what is filled in
 * is saved (beside what the signer is editing, where it never moves the document), and its position.
 */
export function fieldHead(
  t: Texts,
  field: Field,
  id: string,
  position: string,
  saved: HTMLElement,
): HTMLElement {
  return h(
    'div',
    { class: 'field-head' },
    h('label', { class: 'field-name', for: id }, fieldLabel(t, field)),
    h(
      'span',
      { class: `tag${field.required ? ' tag-required' : ''}` },
      field.required ? t.field_required : t.field_optional,
    ),
    saved,
    h('span', { class: 'count' }, position),
  )
}

/** Previous and Next, each disabled at its end. */
export function fieldNav(t: Texts, current: number, count: number, step: (by: -1 | 1) => void): HTMLElement {
  const previous = h('button', { type: 'button', class: 'secondary', disabled: current === 0 }, t.previous)
  previous.addEventListener('click', () => step(-1))
  const next = h('button', { type: 'button', class: 'secondary', disabled: current >= count - 1 }, t.next)
  next.addEventListener('click', () => step(1))
  return h('div', { class: 'nav' }, previous, next)
}

/** The end of the panel: the document as it stands to download, the consent, and Sign. */
export function signingEnd(
  t: Texts,
  currentPdfUrl: string | null | undefined,
  sign: HTMLElement,
): HTMLElement {
  const download = currentPdfUrl
    ? h('a', { class: 'download', href: currentPdfUrl, download: '' }, t.download_document)
    : null
  return h(
    'div',
    { class: 'panel-more', id: 'panel-more' },
    download,
    h('p', { class: 'consent' }, t.consent),
    sign,
  )
}
