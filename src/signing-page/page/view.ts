// The form itself: the document pages with this signer's fields placed on their areas, and a panel
// that edits one field at a time, counts what is still missing, moves to the next field, and ends
// with the consent and the Sign button. Declining is a dialog with the reason.
import { ApiFailure, call, pageImageUrl } from './api.ts'
import { h, mount } from './dom.ts'
import { type Field, fieldsToFill, isFilled, type SigningForm, type Value } from './form.ts'
import { askForSignature } from './signature-dialog.ts'
import { fill, type Texts } from './texts.ts'

export interface ViewEvents {
  /** After a successful sign or decline: the page reads the form again (or redirects). */
  finished(kind: 'signed' | 'declined'): void
  /** The form changed under us (not your turn, already final, ended): read it again. */
  stale(): void
}

const WIDTHS = [800, 1200, 1600]

function initialsOf(name: string | null): string {
  return (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
}

function typeLabel(t: Texts, field: Field): string {
  return t[`type_${field.type}` as keyof Texts] ?? field.type
}

/** A field's name as the sender wrote it, or its type when the name is a bare identifier. */
function fieldLabel(t: Texts, field: Field): string {
  return /[\s]/.test(field.name) || field.name.length > 3 ? field.name : typeLabel(t, field)
}

export function signingView(app: Element, t: Texts, form: SigningForm, events: ViewEvents): void {
  const fields = fieldsToFill(form)
  const values = new Map<string, Value>()
  for (const field of fields) if (field.value !== null) values.set(field.name, field.value)
  let current = 0
  const overlays = new Map<string, HTMLButtonElement[]>()

  const missing = () => fields.filter((f) => f.required && !isFilled(f, values.get(f.name)))
  const progress = h('p', { class: 'progress', role: 'status' })
  const panel = h('div', { class: 'panel-inner' })
  const message = h('p', { class: 'message', role: 'alert' })

  const declineButton = h('button', { type: 'button', class: 'secondary small' }, t.decline)
  declineButton.addEventListener('click', () => openDecline())
  const title = form.documents.map((d) => d.name).join(', ')
  const header = h(
    'header',
    { class: 'bar' },
    h(
      'div',
      { class: 'bar-inner' },
      h('h1', { class: 'doc-title', tabindex: '-1' }, title),
      progress,
      declineButton,
    ),
  )

  // Pages, each with the overlays of this signer's fields on it.
  const pagesColumn = h('div', { class: 'documents', role: 'region', 'aria-label': t.documents_label })
  const totalPages = form.documents.reduce((sum, d) => sum + d.pages.length, 0)
  let pageNumber = 0
  form.documents.forEach((document, d) => {
    document.pages.forEach((size, p) => {
      pageNumber++
      const srcset = WIDTHS.map((w) => `${pageImageUrl(d, p + 1, w)} ${w}w`).join(', ')
      const figure = h(
        'figure',
        { class: 'page', style: { 'aspect-ratio': `${size.width} / ${size.height}` } },
        h('img', {
          src: pageImageUrl(d, p + 1, WIDTHS[0] ?? 800),
          srcset,
          sizes: '(max-width: 900px) 100vw, 860px',
          alt: fill(t.page_of, { n: pageNumber, m: totalPages }),
          loading: pageNumber <= 2 ? 'eager' : 'lazy',
          decoding: 'async',
          width: Math.round(size.width),
          height: Math.round(size.height),
        }),
      )
      fields.forEach((field, index) => {
        for (const area of field.areas) {
          if (area.document !== d || area.page !== p + 1) continue
          const button = h('button', {
            type: 'button',
            class: `field field-${field.type}${field.required ? ' is-required' : ''}`,
            style: {
              left: `${area.x * 100}%`,
              top: `${area.y * 100}%`,
              width: `${area.w * 100}%`,
              height: `${area.h * 100}%`,
            },
            'data-field': field.name,
          })
          button.addEventListener('click', () => select(index, true))
          figure.append(button)
          overlays.set(field.name, [...(overlays.get(field.name) ?? []), button])
        }
      })
      pagesColumn.append(figure)
    })
  })

  function drawOverlay(field: Field): void {
    const value = values.get(field.name)
    const filled = isFilled(field, value)
    for (const button of overlays.get(field.name) ?? []) {
      button.classList.toggle('is-filled', filled)
      button.classList.toggle('is-current', fields[current] === field)
      const state = filled ? t.field_filled : t.field_empty
      const need = field.required ? t.field_required : t.field_optional
      button.setAttribute('aria-label', `${fieldLabel(t, field)}, ${need}, ${state}`)
      if ((field.type === 'signature' || field.type === 'initials') && typeof value === 'string' && filled) {
        mount(button, h('img', { src: value, alt: '' }))
      } else if (field.type === 'checkbox' && value === true) {
        mount(button, h('span', { class: 'check', 'aria-hidden': 'true' }, '✓'))
      } else if (filled) {
        mount(button, h('span', { class: 'value' }, String(value)))
      } else {
        mount(button, h('span', { class: 'placeholder' }, fieldLabel(t, field)))
      }
    }
  }

  function set(field: Field, value: Value | undefined): void {
    if (value === undefined || value === '') values.delete(field.name)
    else values.set(field.name, value)
    drawOverlay(field)
    updateProgress()
  }

  function updateProgress(): void {
    const left = missing().length
    progress.textContent =
      left === 0 ? t.all_filled : left === 1 ? t.required_left_one : fill(t.required_left, { n: left })
  }

  async function editSignature(field: Field): Promise<void> {
    const suggestion =
      field.type === 'initials' ? initialsOf(form.submitter.name) : (form.submitter.name ?? '')
    const png = await askForSignature(t, {
      kind: field.type as 'signature' | 'initials',
      label: fieldLabel(t, field),
      suggestion,
    })
    if (png) set(field, png)
    // Back to the panel, on the field's button, so a keyboard user carries on from there.
    renderPanel(true)
  }

  /** The editor of one field, by type; each reports its value through `set`. */
  function editor(field: Field): HTMLElement {
    const id = `field-input-${fields.indexOf(field)}`
    const value = values.get(field.name)
    switch (field.type) {
      case 'signature':
      case 'initials': {
        const preview =
          typeof value === 'string' && value
            ? h('img', { class: 'signature-preview', src: value, alt: '' })
            : null
        return h(
          'div',
          { class: 'editor' },
          preview,
          h(
            'button',
            { type: 'button', class: 'secondary', id, onclick: () => editSignature(field) },
            preview ? t.change : field.type === 'initials' ? t.add_initials : t.add_signature,
          ),
        )
      }
      case 'checkbox': {
        const box = h('input', { type: 'checkbox', id, checked: value === true })
        box.addEventListener('change', () => set(field, box.checked ? true : undefined))
        return h('div', { class: 'editor editor-inline' }, box, h('label', { for: id }, t.checkbox_label))
      }
      case 'radio': {
        const group = h(
          'fieldset',
          { class: 'editor radios' },
          h('legend', { class: 'visually-hidden' }, fieldLabel(t, field)),
        )
        ;(field.options ?? []).forEach((option, i) => {
          const radio = h('input', {
            type: 'radio',
            name: id,
            id: `${id}-${i}`,
            value: option,
            checked: value === option,
          })
          radio.addEventListener('change', () => set(field, option))
          group.append(h('div', { class: 'editor-inline' }, radio, h('label', { for: `${id}-${i}` }, option)))
        })
        return group
      }
      case 'select': {
        const select = h('select', { id }, h('option', { value: '' }, t.choose))
        for (const option of field.options ?? []) {
          select.append(h('option', { value: option, selected: value === option }, option))
        }
        select.addEventListener('change', () => set(field, select.value || undefined))
        return h('div', { class: 'editor' }, select)
      }
      case 'date': {
        const input = h('input', { type: 'date', id, value: typeof value === 'string' ? value : '' })
        // Some browsers report a date typed segment by segment only on change.
        for (const type of ['input', 'change']) {
          input.addEventListener(type, () => set(field, input.value || undefined))
        }
        return h('div', { class: 'editor' }, input)
      }
      case 'number': {
        const input = h('input', {
          type: 'text',
          inputmode: 'decimal',
          id,
          value: typeof value === 'number' ? String(value) : '',
        })
        input.addEventListener('input', () => {
          const text = input.value.trim().replace(',', '.')
          const number = Number(text)
          set(field, text !== '' && Number.isFinite(number) ? number : undefined)
          input.setAttribute('aria-invalid', String(text !== '' && !Number.isFinite(number)))
        })
        return h('div', { class: 'editor' }, input)
      }
      default: {
        const input = h('input', {
          type: 'text',
          id,
          maxlength: 1000,
          value: typeof value === 'string' ? value : '',
        })
        input.addEventListener('input', () => set(field, input.value || undefined))
        return h('div', { class: 'editor' }, input)
      }
    }
  }

  function select(index: number, focus: boolean): void {
    current = Math.max(0, Math.min(fields.length - 1, index))
    renderPanel(focus)
    const field = fields[current]
    if (!field) return
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    overlays.get(field.name)?.[0]?.scrollIntoView({ block: 'center', behavior: calm ? 'auto' : 'smooth' })
    if (
      focus &&
      (field.type === 'signature' || field.type === 'initials') &&
      !isFilled(field, values.get(field.name))
    ) {
      void editSignature(field)
    }
  }

  function nextMissing(): number {
    const after = fields.findIndex((f, i) => i > current && f.required && !isFilled(f, values.get(f.name)))
    if (after >= 0) return after
    return fields.findIndex((f) => f.required && !isFilled(f, values.get(f.name)))
  }

  function renderPanel(focus: boolean): void {
    for (const field of fields) drawOverlay(field)
    const field = fields[current]
    const head = field
      ? h(
          'div',
          { class: 'field-head' },
          h('label', { class: 'field-name', for: `field-input-${current}` }, fieldLabel(t, field)),
          h(
            'span',
            { class: `tag${field.required ? ' tag-required' : ''}` },
            field.required ? t.field_required : t.field_optional,
          ),
          h('span', { class: 'count' }, `${current + 1} / ${fields.length}`),
        )
      : null
    const previous = h('button', { type: 'button', class: 'secondary', disabled: current === 0 }, t.previous)
    previous.addEventListener('click', () => select(current - 1, true))
    const next = h(
      'button',
      { type: 'button', class: 'secondary', disabled: current >= fields.length - 1 },
      t.next,
    )
    next.addEventListener('click', () => select(current + 1, true))
    const sign = h('button', { type: 'button', class: 'primary sign' }, t.sign)
    sign.addEventListener('click', () => submit(sign))
    mount(
      panel,
      head,
      field ? editor(field) : null,
      fields.length > 1 ? h('div', { class: 'nav' }, previous, next) : null,
      h('p', { class: 'consent' }, form.consent_text && t.consent),
      message,
      sign,
    )
    if (focus) panel.querySelector<HTMLElement>('input, select, .editor button')?.focus()
  }

  async function submit(button: HTMLButtonElement): Promise<void> {
    message.textContent = ''
    const left = missing()
    if (left.length > 0) {
      message.textContent = fill(t.missing_fields, { fields: left.map((f) => fieldLabel(t, f)).join(', ') })
      select(nextMissing(), true)
      return
    }
    button.disabled = true
    button.textContent = t.signing
    try {
      await call('POST', 'sign', { values: Object.fromEntries(values) })
      events.finished('signed')
    } catch (failure) {
      button.disabled = false
      button.textContent = t.sign
      const code = failure instanceof ApiFailure ? failure.code : ''
      if (
        [
          'not_your_turn',
          'submitter_already_finalized',
          'submission_not_active',
          'email_2fa_required',
        ].includes(code)
      ) {
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

  function openDecline(): void {
    const reason = h('textarea', { id: 'decline-reason', maxlength: 1000, required: true, rows: 4 })
    const error = h('p', { class: 'message', role: 'alert' })
    const cancel = h('button', { type: 'button', class: 'secondary' }, t.cancel)
    const confirm = h('button', { type: 'submit', class: 'danger' }, t.decline_confirm)
    const body = h(
      'form',
      { method: 'dialog', class: 'dialog-body' },
      h('h2', { id: 'decline-title' }, t.decline_title),
      h('label', { for: 'decline-reason' }, t.decline_reason),
      reason,
      error,
      h('div', { class: 'actions' }, cancel, confirm),
    )
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'decline-title' }, body)
    document.body.append(dialog)
    const close = () => {
      dialog.close()
      dialog.remove()
      declineButton.focus()
    }
    cancel.addEventListener('click', close)
    body.addEventListener('submit', async (event) => {
      event.preventDefault()
      if (!reason.value.trim()) {
        error.textContent = t.decline_reason
        reason.focus()
        return
      }
      confirm.disabled = true
      try {
        await call('POST', 'decline', { reason: reason.value.trim() })
        dialog.close()
        dialog.remove()
        events.finished('declined')
      } catch (failure) {
        confirm.disabled = false
        if (failure instanceof ApiFailure && failure.status !== 422 && failure.code !== 'network') {
          dialog.remove()
          events.stale()
          return
        }
        error.textContent =
          failure instanceof ApiFailure && failure.message ? failure.message : t.error_generic
      }
    })
    dialog.showModal()
    reason.focus()
  }

  mount(app, header, pagesColumn, h('aside', { class: 'panel', 'aria-label': t.sign }, panel))
  updateProgress()
  renderPanel(false)
  app.querySelector<HTMLElement>('.doc-title')?.focus()
}
