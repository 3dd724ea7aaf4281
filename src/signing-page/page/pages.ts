// The document pages with what goes on them: this signer's fields as buttons on their areas, and the
// values others already gave, drawn read-only and marked as theirs (see what you sign).
// Each page shows a placeholder until its image has loaded, so a slow page is never blank white.
import { isEditorDefaultName } from '../../lib/editor-field-names.ts'
import { pageImageUrl } from './api.ts'
import { h, mount } from './dom.ts'
import { type Area, type Field, filledByOthers, isFilled, type SigningForm, type Value } from './form.ts'
import { formatDate, formatNumber } from './locale.ts'
import { fill, type Language, type Texts } from './texts.ts'

const WIDTHS = [800, 1200, 1600]

/** A field's type in the signer's words: "Your signature" on their own, "Signature" on another's. */
function typeLabel(t: Texts, field: Field, whose: 'own' | 'other'): string {
  if (whose === 'own' && field.type === 'signature') return t.your_signature
  if (whose === 'own' && field.type === 'initials') return t.your_initials
  return t[`type_${field.type}` as keyof Texts] ?? field.type
}

/**
 * A field's name as the sender wrote it; its type instead when the name says nothing to a signer:
 * a bare identifier, or the name the template editor made up ("Signature 2", lib/editor-field-names).
 * `whose`: the signer's own field (the default) or a value of someone else's.
 */
export function fieldLabel(t: Texts, field: Field, whose: 'own' | 'other' = 'own'): string {
  const said =
    (/[\s]/.test(field.name) || field.name.length > 3) && !isEditorDefaultName(field.name, field.type)
  return said ? field.name : typeLabel(t, field, whose)
}

const place = (area: Area) => ({
  left: `${area.x * 100}%`,
  top: `${area.y * 100}%`,
  width: `${area.w * 100}%`,
  height: `${area.h * 100}%`,
})

/** A value as the signer reads it: dates in their language, the rest as given. */
export function shownValue(field: Field, value: Value, lang: Language): string {
  if (field.type === 'date' && typeof value === 'string') return formatDate(value, lang)
  if (typeof value === 'number') return formatNumber(value, lang)
  return String(value)
}

/** Someone else's value, read-only: muted, captioned with whose it is. */
function othersValue(t: Texts, lang: Language, form: SigningForm, field: Field, area: Area): HTMLElement {
  const by = field.role !== form.submitter.role ? fill(t.filled_by, { role: field.role }) : t.prefilled
  const value = field.value as Value
  let content: HTMLElement
  if (field.type === 'signature' || field.type === 'initials') {
    const alt = fill(field.type === 'initials' ? t.other_initials : t.other_signature, { role: field.role })
    const img = h('img', { src: String(value), alt })
    // A URL the page cannot show (expired, elsewhere) still says what stands there.
    img.addEventListener('error', () => img.replaceWith(h('span', {}, `${alt} (${t.image_unavailable})`)))
    content = img
  } else if (field.type === 'checkbox') {
    content = h(
      'span',
      { class: 'check' },
      h('span', { 'aria-hidden': 'true' }, '✓'),
      h('span', { class: 'visually-hidden' }, t.ticked),
    )
  } else {
    content = h('span', { class: 'value' }, shownValue(field, value, lang))
  }
  return h(
    'div',
    { class: `other other-${field.type}`, style: place(area), 'data-other': field.name },
    h('span', { class: 'by' }, by),
    content,
  )
}

export interface PagesView {
  element: HTMLElement
  /** This signer's field buttons by field name (a field may stand in several places). */
  overlays: Map<string, HTMLButtonElement[]>
}

function pageFigure(
  t: Texts,
  d: number,
  p: number,
  n: number,
  total: number,
  size: { width: number; height: number },
) {
  const srcset = WIDTHS.map((w) => `${pageImageUrl(d, p, w)} ${w}w`).join(', ')
  const loading = h('span', { class: 'page-loading', 'aria-hidden': 'true' }, fill(t.page_loading, { n }))
  const img = h('img', {
    src: pageImageUrl(d, p, WIDTHS[0] ?? 800),
    srcset,
    sizes: '(max-width: 900px) 100vw, 860px',
    alt: fill(t.page_of, { n, m: total }),
    loading: n <= 2 ? 'eager' : 'lazy',
    decoding: 'async',
    width: Math.round(size.width),
    height: Math.round(size.height),
  })
  const figure = h(
    'figure',
    { class: 'page', style: { 'aspect-ratio': `${size.width} / ${size.height}` } },
    loading,
    img,
  )
  img.addEventListener('load', () => figure.classList.add('is-loaded'))
  img.addEventListener('error', () => {
    figure.classList.add('is-failed')
    loading.textContent = t.page_failed
  })
  return figure
}

/** Every page, with this signer's `fields` (picked by `onPick(index)`) and others' values on them. */
export function documentPages(
  t: Texts,
  lang: Language,
  form: SigningForm,
  fields: Field[],
  onPick: (index: number) => void,
): PagesView {
  const element = h('div', { class: 'documents', role: 'region', 'aria-label': t.documents_label })
  const overlays = new Map<string, HTMLButtonElement[]>()
  const others = filledByOthers(form)
  const total = form.documents.reduce((sum, d) => sum + d.pages.length, 0)
  let n = 0
  form.documents.forEach((document, d) => {
    document.pages.forEach((size, index) => {
      const p = index + 1
      const figure = pageFigure(t, d, p, ++n, total, size)
      const here = (area: Area) => area.document === d && area.page === p
      for (const field of others) {
        for (const area of field.areas.filter(here)) figure.append(othersValue(t, lang, form, field, area))
      }
      fields.forEach((field, i) => {
        for (const area of field.areas.filter(here)) {
          const button = h('button', {
            type: 'button',
            class: `field field-${field.type}${field.required ? ' is-required' : ''}`,
            style: place(area),
            'data-field': field.name,
          })
          button.addEventListener('click', () => onPick(i))
          figure.append(button)
          overlays.set(field.name, [...(overlays.get(field.name) ?? []), button])
        }
      })
      element.append(figure)
    })
  })
  return { element, overlays }
}

/** A field's buttons drawn for its value, and marked when it is the current one. */
export function paintField(
  t: Texts,
  lang: Language,
  buttons: HTMLButtonElement[],
  field: Field,
  value: Value | undefined,
  current: boolean,
): void {
  const filled = isFilled(field, value)
  for (const button of buttons) {
    button.classList.toggle('is-filled', filled)
    button.classList.toggle('is-current', current)
    if (current) button.setAttribute('aria-current', 'true')
    else button.removeAttribute('aria-current')
    const state = filled ? t.field_filled : t.field_empty
    const need = field.required ? t.field_required : t.field_optional
    const label = fieldLabel(t, field)
    // The words the box shows come first in its name (WCAG 2.5.3, axe label-content-name-mismatch).
    const shown = overlayText(t, lang, field, value, filled)
    button.setAttribute('aria-label', `${shown === label ? label : `${shown} — ${label}`}, ${need}, ${state}`)
    if ((field.type === 'signature' || field.type === 'initials') && typeof value === 'string' && filled) {
      mount(button, h('img', { src: value, alt: '' }))
    } else if (field.type === 'checkbox' && value === true) {
      mount(button, h('span', { class: 'check', 'aria-hidden': 'true' }, '✓'))
    } else {
      mount(button, h('span', { class: filled ? 'value' : 'placeholder' }, shown))
    }
  }
}

/** The words a field's box shows: its value as the signer reads it, else its name (an image or a tick shows no value in words). */
function overlayText(
  t: Texts,
  lang: Language,
  field: Field,
  value: Value | undefined,
  filled: boolean,
): string {
  const pictured = field.type === 'signature' || field.type === 'initials' || field.type === 'checkbox'
  return filled && value !== undefined && !pictured ? shownValue(field, value, lang) : fieldLabel(t, field)
}
