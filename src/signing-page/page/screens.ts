// The screens around the form: every `state` that is not `ready`, the e-mail code, and errors. Each
// carries the language picker above its card.
import { ApiFailure, call, keepSession } from './api.ts'
import { h, mount } from './dom.ts'
import type { SigningForm, State } from './form.ts'
import { formatDateTimeUtc } from './locale.ts'
import { fill, type Language, type Texts } from './texts.ts'

type Ended = Exclude<State, 'ready' | 'email_2fa_required'>

const ENDED: Record<Ended, { title: keyof Texts; body: keyof Texts }> = {
  waiting_for_others: { title: 'state_waiting_title', body: 'state_waiting_body' },
  signed: { title: 'state_signed_title', body: 'state_signed_body' },
  declined: { title: 'state_declined_title', body: 'state_declined_body' },
  completed: { title: 'state_completed_title', body: 'state_completed_body' },
  expired: { title: 'state_expired_title', body: 'state_expired_body' },
  cancelled: { title: 'state_cancelled_title', body: 'state_cancelled_body' },
  signed_by_other: { title: 'state_signed_by_other_title', body: 'state_signed_by_other_body' },
}

/** The screen's text: for `signed_by_other`, who of the group signed and when (all the link reveals). */
function bodyOf(t: Texts, form: SigningForm, lang: Language): string {
  const copy = ENDED[form.state as Ended]
  if (form.state !== 'signed_by_other' || !form.signed_by) return t[copy.body]
  return fill(t[copy.body], {
    name: form.signed_by.name,
    date: formatDateTimeUtc(form.signed_by.signed_at, lang),
  })
}

/** A heading the screen reader lands on when the screen changes. */
function heading(text: string): HTMLHeadingElement {
  return h('h1', { tabindex: '-1', class: 'screen-title' }, text)
}

function show(app: Element, picker: HTMLElement, ...content: Node[]): void {
  const screen = h('section', { class: 'screen' }, ...content)
  mount(app, h('div', { class: 'screen-top' }, picker), screen)
  // The form may have been scrolled far down: the new screen starts at the top.
  window.scrollTo(0, 0)
  screen.querySelector<HTMLElement>('h1')?.focus()
}

/**
 * What the signer may download in this state (docs/api.md#the-signers-form): the sealed PDF
 * (`signed_pdf_url`) once completed, else the document as it stands (`current_pdf_url`), which
 * after signing is the signer's copy and says on the button that it is not sealed yet.
 */
function downloadOf(t: Texts, form: SigningForm): { href: string; label: string; note?: string } | null {
  if (form.state === 'completed' && form.signed_pdf_url)
    return { href: form.signed_pdf_url, label: t.download_signed }
  if (!form.current_pdf_url) return null
  if (form.state === 'signed')
    return { href: form.current_pdf_url, label: t.download_copy, note: t.download_copy_note }
  if (form.state === 'waiting_for_others') return { href: form.current_pdf_url, label: t.download_document }
  return null
}

export function endedScreen(
  app: Element,
  t: Texts,
  lang: Language,
  form: SigningForm,
  picker: HTMLElement,
): void {
  const copy = ENDED[form.state as Ended]
  const link = downloadOf(t, form)
  const download = link
    ? h(
        'a',
        { class: 'button primary download-link', href: link.href, download: '' },
        link.label,
        link.note ? h('span', { class: 'download-note' }, ` (${link.note})`) : null,
      )
    : null
  show(
    app,
    picker,
    h('div', { class: `badge badge-${form.state}`, 'aria-hidden': 'true' }),
    heading(t[copy.title]),
    h('p', {}, bodyOf(t, form, lang)),
    ...(download ? [download] : []),
    // The console editor's test copy (docs/console.md#preview-as-a-signer) says what it was.
    ...(form.submission.preview
      ? [
          h(
            'p',
            { class: 'context preview-notice', role: 'note' },
            h('strong', {}, t.preview_title),
            ' ',
            t.preview_done,
          ),
        ]
      : []),
  )
}

export function errorScreen(
  app: Element,
  t: Texts,
  failure: unknown,
  retry: () => void,
  picker: HTMLElement,
): void {
  // docs/api.md#the-signing-page: purged while the page was open; nothing to retry, nothing to show.
  if (failure instanceof ApiFailure && failure.code === 'submission_purged') {
    show(app, picker, heading(t.link_purged_title), h('p', {}, t.link_purged_body))
    return
  }
  const network = failure instanceof ApiFailure && failure.code === 'network'
  show(
    app,
    picker,
    heading(network ? t.error_network : t.error_generic),
    h('button', { type: 'button', class: 'primary', onclick: retry }, t.retry),
  )
}

/** Survives a redraw in another language: whether a code was already sent. */
export interface CodeState {
  sent: boolean
}

/** docs/api.md#e-mail-code-2fa: send a code, enter it; on success the form is read again. */
export function codeScreen(
  app: Element,
  t: Texts,
  form: SigningForm,
  done: () => void,
  picker: HTMLElement,
  state: CodeState,
): void {
  const info = h(
    'p',
    { class: 'info', role: 'status' },
    state.sent ? fill(t.code_sent, { email: form.submitter.email }) : '',
  )
  const message = h('p', { class: 'message', role: 'alert' })
  const input = h('input', {
    id: 'code',
    class: 'code-input',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: 6,
    required: true,
  })
  const entry = h(
    'form',
    { class: 'code-form', hidden: !state.sent },
    h('label', { for: 'code' }, t.code_label),
    input,
    h('button', { type: 'submit', class: 'primary' }, t.code_verify),
  )
  const send = h('button', { type: 'button', class: 'primary', hidden: state.sent }, t.code_send)
  const resend = h('button', { type: 'button', class: 'link-button', hidden: !state.sent }, t.code_resend)
  const ask = async () => {
    message.textContent = ''
    try {
      await call('POST', 'email_2fa/send')
      info.textContent = fill(t.code_sent, { email: form.submitter.email })
      state.sent = true
      send.hidden = true
      entry.hidden = false
      resend.hidden = false
      input.focus()
    } catch (failure) {
      message.textContent =
        failure instanceof ApiFailure && failure.status === 429 ? t.code_wait : t.error_generic
    }
  }
  send.addEventListener('click', ask)
  resend.addEventListener('click', ask)
  entry.addEventListener('submit', async (event) => {
    event.preventDefault()
    message.textContent = ''
    try {
      const answer = await call<{ session?: string }>('POST', 'email_2fa/verify', {
        code: input.value.trim(),
      })
      keepSession(answer?.session)
      done()
    } catch (failure) {
      const code = failure instanceof ApiFailure ? failure.code : ''
      message.textContent =
        code === 'invalid_code' ? t.code_invalid : code === 'code_expired' ? t.code_expired : t.error_generic
      input.select()
    }
  })
  show(
    app,
    picker,
    heading(t.code_title),
    h('p', {}, fill(t.code_body, { email: form.submitter.email })),
    info,
    send,
    entry,
    message,
    resend,
  )
}
