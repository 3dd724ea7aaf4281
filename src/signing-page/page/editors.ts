// The panel's editor of one field, by type. Each reports its value through `set`; a value that cannot
// be taken says why in words, in an error tied to its input (aria-describedby, aria-invalid), shown
// once the signer leaves the input and gone as soon as the value is right.
import { h } from './dom.ts'
import type { Field, Value } from './form.ts'
import { formatNumber, numberExample, parseNumber, todayIso, YEARS, yearInRange } from './locale.ts'
import { fieldLabel } from './pages.ts'
import type { MadeSignature } from './signature-dialog.ts'
import { fill, type Language, type Texts } from './texts.ts'

export interface EditorContext {
  t: Texts
  lang: Language
  field: Field
  /** The id of the editor's main control, which the panel's label names and focus lands on. */
  id: string
  value: Value | undefined
  set(value: Value | undefined): void
  /** Signature and initials: the image already adopted for this kind, to make one, to apply it. */
  adopted: MadeSignature | undefined
  makeImage(): void
  applyAdopted(): void
}

/**
 * An input whose refusal is a sentence below it: `check` gives the problem (or null) and the value.
 * Returns the error element and `update(reveal)`, which takes the input's value as it now stands.
 */
function checkedInput(
  ctx: EditorContext,
  input: HTMLInputElement,
  check: () => { problem: string | null; value: Value | undefined },
): { error: HTMLElement; update: (reveal: boolean) => void } {
  const error = h('p', { class: 'field-error', id: `${ctx.id}-error`, 'aria-live': 'polite' })
  input.setAttribute('aria-describedby', error.id)
  let shown = false
  const update = (reveal: boolean) => {
    const { problem, value } = check()
    ctx.set(value)
    // Said once the signer leaves the input (not while they type), withdrawn as soon as it is right.
    if (!reveal && !shown) return
    error.textContent = problem ?? ''
    input.setAttribute('aria-invalid', String(problem !== null))
    shown = problem !== null
  }
  for (const type of ['input', 'change']) input.addEventListener(type, () => update(false))
  input.addEventListener('blur', () => update(true))
  return { error, update }
}

/**
 * The accessible name of a button the field's name labels: its visible words first, so that voice
 * control finds it by what it says (WCAG 2.5.3), then the field's name unless they already hold it.
 */
function buttonName(visible: string, label: string): string {
  return visible.toLowerCase().includes(label.toLowerCase()) ? visible : `${visible} — ${label}`
}

function imageEditor(ctx: EditorContext): HTMLElement {
  const { t, field, value } = ctx
  const initials = field.type === 'initials'
  const named = (visible: string) => ({ id: ctx.id, 'aria-label': buttonName(visible, fieldLabel(t, field)) })
  if (typeof value === 'string' && value) {
    const remove = h(
      'button',
      { type: 'button', class: 'link-button', onclick: () => ctx.set(undefined) },
      t.remove,
    )
    return h(
      'div',
      { class: 'editor' },
      h('img', { class: 'signature-preview', src: value, alt: '' }),
      h(
        'div',
        { class: 'editor-inline' },
        h(
          'button',
          { type: 'button', class: 'secondary', ...named(t.change), onclick: ctx.makeImage },
          t.change,
        ),
        remove,
      ),
    )
  }
  if (ctx.adopted) {
    const use = initials ? t.use_initials : t.use_signature
    return h(
      'div',
      { class: 'editor editor-inline' },
      h(
        'button',
        { type: 'button', class: 'primary', ...named(use), onclick: ctx.applyAdopted },
        h('img', { class: 'adopted-preview', src: ctx.adopted.png, alt: '' }),
        use,
      ),
      h('button', { type: 'button', class: 'link-button', onclick: ctx.makeImage }, t.change),
    )
  }
  const add = initials ? t.add_initials : t.add_signature
  return h(
    'div',
    { class: 'editor' },
    h('button', { type: 'button', class: 'secondary', ...named(add), onclick: ctx.makeImage }, add),
  )
}

function dateEditor(ctx: EditorContext): HTMLElement {
  const { t } = ctx
  const input = h('input', {
    type: 'date',
    id: ctx.id,
    min: `${YEARS.min}-01-01`,
    max: `${YEARS.max}-12-31`,
    value: typeof ctx.value === 'string' ? ctx.value : '',
  })
  const { error, update } = checkedInput(ctx, input, () => {
    // A date typed segment by segment is empty (badInput) until its year is complete.
    if (input.validity.badInput) return { problem: t.date_incomplete, value: undefined }
    if (input.value && !yearInRange(input.value)) return { problem: t.date_range, value: undefined }
    return { problem: null, value: input.value || undefined }
  })
  const today = h('button', { type: 'button', class: 'secondary today' }, t.today)
  today.addEventListener('click', () => {
    input.value = todayIso()
    update(true)
    showStored()
  })
  // The signed PDF writes a date one way whatever the language (docs/api.md#documents): say how.
  const stored = h('p', { class: 'field-hint', id: `${ctx.id}-stored` })
  const showStored = () => {
    const iso = input.validity.valid && input.value && yearInRange(input.value) ? input.value : ''
    stored.textContent = iso ? fill(t.date_in_document, { date: iso }) : ''
  }
  input.setAttribute('aria-describedby', `${ctx.id}-error ${stored.id}`)
  for (const type of ['input', 'change']) input.addEventListener(type, showStored)
  showStored()
  return h('div', { class: 'editor' }, h('div', { class: 'editor-row' }, input, today), error, stored)
}

function numberEditor(ctx: EditorContext): HTMLElement {
  const input = h('input', {
    type: 'text',
    inputmode: 'decimal',
    id: ctx.id,
    autocomplete: 'off',
    value: typeof ctx.value === 'number' ? formatNumber(ctx.value, ctx.lang) : '',
  })
  const { error } = checkedInput(ctx, input, () => {
    const text = input.value.trim()
    if (!text) return { problem: null, value: undefined }
    const value = parseNumber(text)
    return value === null
      ? { problem: fill(ctx.t.number_invalid, { example: numberExample(ctx.lang) }), value: undefined }
      : { problem: null, value }
  })
  return h('div', { class: 'editor' }, input, error)
}

function choiceEditor(ctx: EditorContext): HTMLElement {
  const { t, field, value, id } = ctx
  if (field.type === 'select') {
    const select = h('select', { id }, h('option', { value: '' }, t.choose))
    for (const option of field.options ?? []) {
      select.append(h('option', { value: option, selected: value === option }, option))
    }
    select.addEventListener('change', () => ctx.set(select.value || undefined))
    return h('div', { class: 'editor' }, select)
  }
  const group = h(
    'fieldset',
    { class: 'editor radios' },
    h('legend', { class: 'visually-hidden' }, fieldLabel(t, field)),
  )
  ;(field.options ?? []).forEach((option, i) => {
    const radio = h('input', { type: 'radio', name: id, id: `${id}-${i}`, value: option })
    radio.checked = value === option
    radio.addEventListener('change', () => ctx.set(option))
    group.append(h('div', { class: 'editor-inline' }, radio, h('label', { for: radio.id }, option)))
  })
  return group
}

export function editor(ctx: EditorContext): HTMLElement {
  const { t, field, value, id } = ctx
  switch (field.type) {
    case 'signature':
    case 'initials':
      return imageEditor(ctx)
    case 'date':
      return dateEditor(ctx)
    case 'number':
      return numberEditor(ctx)
    case 'radio':
    case 'select':
      return choiceEditor(ctx)
    case 'checkbox': {
      const box = h('input', { type: 'checkbox', id, checked: value === true })
      box.addEventListener('change', () => ctx.set(box.checked ? true : undefined))
      return h('div', { class: 'editor editor-inline' }, box, h('label', { for: id }, t.checkbox_label))
    }
    default: {
      const input = h('input', {
        type: 'text',
        id,
        maxlength: 1000,
        value: typeof value === 'string' ? value : '',
      })
      input.addEventListener('input', () => ctx.set(input.value || undefined))
      return h('div', { class: 'editor' }, input)
    }
  }
}
