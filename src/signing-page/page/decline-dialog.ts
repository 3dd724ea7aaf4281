// Declining (`POST …/decline` in docs/api.md#signing): a dialog that asks the reason, then tells
// the page.
import { ApiFailure, call } from './api.ts'
import { h } from './dom.ts'
import { isLanguage, type Texts } from './texts.ts'

export interface DeclineEvents {
  declined(): void
  /** The form changed under us (already final, ended): read it again. */
  stale(): void
}

/** Opens the dialog; focus returns to `opener` when it is cancelled. */
export function openDecline(t: Texts, opener: HTMLElement, events: DeclineEvents): void {
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
    opener.focus()
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
      // The page's language (main.ts keeps it on <html lang>), kept with the refusal for the audit trail.
      const language = document.documentElement.lang
      await call('POST', 'decline', {
        reason: reason.value.trim(),
        ...(isLanguage(language) ? { language } : {}),
      })
      dialog.close()
      dialog.remove()
      events.declined()
    } catch (failure) {
      confirm.disabled = false
      if (failure instanceof ApiFailure && failure.status !== 422 && failure.code !== 'network') {
        dialog.remove()
        events.stale()
        return
      }
      error.textContent = failure instanceof ApiFailure && failure.message ? failure.message : t.error_generic
    }
  })
  dialog.showModal()
  reason.focus()
}
