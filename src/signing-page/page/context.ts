// What the signer reads before the document (issue #33 item 5): the sender's message, as text only,
// its `{{variables}}` filled as the signing request fills them (docs/api.md#variables), and every
// value other signers (or the sender) entered, in full and under whose it is, since a small box on
// the page may not hold a long value.
import { fillVariables, type MailVariable } from '../../mail/messages/variables.ts'
import { h } from './dom.ts'
import { type Field, filledByOthers, type SigningForm, titleOf, type Value } from './form.ts'
import { formatDateTimeUtc } from './locale.ts'
import { fieldLabel, shownValue } from './pages.ts'
import { fill, type Language, type Texts } from './texts.ts'

/** `23 November 2026 at 10:00 UTC`, as the signer's language writes it. */
function expiry(iso: string | null, lang: Language): string {
  return iso ? formatDateTimeUtc(iso, lang) : ''
}

function variables(form: SigningForm, lang: Language): (name: MailVariable) => string {
  const values: Record<MailVariable, string> = {
    'submitter.name': form.submitter.name || form.submitter.email,
    'submitter.email': form.submitter.email,
    // This page's own address: whoever reads the message here holds it already.
    'submitter.signing_url': window.location.href.split('#')[0] ?? '',
    'document.name': titleOf(form),
    'submission.id': form.submission.id,
    'submission.expires_at': expiry(form.submission.expires_at, lang),
  }
  return (name) => values[name]
}

/** The sender's message: text nodes only, paragraphs at blank lines, line breaks kept (CSS pre-line). */
function senderMessage(t: Texts, lang: Language, form: SigningForm): HTMLElement | null {
  const message = form.submission.message
  if (!message || !(message.subject || message.body)) return null
  const value = variables(form, lang)
  const paragraphs = (message.body ?? '')
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => fillVariables(block.trim(), value))
    .filter((block) => block !== '')
  return h(
    'details',
    { class: 'context sender-message', open: true },
    h('summary', {}, t.sender_message),
    message.subject ? h('p', { class: 'message-subject' }, fillVariables(message.subject, value)) : null,
    ...paragraphs.map((text) => h('p', { class: 'message-body' }, text)),
  )
}

function listedValue(t: Texts, lang: Language, field: Field): HTMLElement {
  const value = field.value as Value
  if (field.type === 'signature' || field.type === 'initials') {
    const alt = fill(field.type === 'initials' ? t.other_initials : t.other_signature, { role: field.role })
    const img = h('img', { src: String(value), alt })
    img.addEventListener('error', () => img.replaceWith(h('span', {}, `${alt} (${t.image_unavailable})`)))
    return h('dd', {}, img)
  }
  if (field.type === 'checkbox') return h('dd', {}, t.ticked)
  return h('dd', {}, shownValue(field, value, lang))
}

/** Every value of others, by whose it is, each under its field's name. */
function othersValues(t: Texts, lang: Language, form: SigningForm): HTMLElement | null {
  const others = filledByOthers(form)
  if (others.length === 0) return null
  const whose = (f: Field) =>
    f.role !== form.submitter.role ? fill(t.filled_by, { role: f.role }) : t.prefilled
  const groups = new Map<string, Field[]>()
  for (const field of others) groups.set(whose(field), [...(groups.get(whose(field)) ?? []), field])
  return h(
    'details',
    { class: 'context others-values' },
    h('summary', {}, fill(t.others_values, { n: others.length })),
    ...[...groups].map(([by, fields]) =>
      h(
        'section',
        {},
        h('h2', {}, by),
        h(
          'dl',
          {},
          ...fields.flatMap((f) => [h('dt', {}, fieldLabel(t, f, 'other')), listedValue(t, lang, f)]),
        ),
      ),
    ),
  )
}

/** The console editor's preview (docs/console.md#preview-as-a-signer): said before anything else. */
function previewNotice(t: Texts, form: SigningForm): HTMLElement | null {
  if (!form.submission.preview) return null
  return h(
    'p',
    { class: 'context preview-notice', role: 'note' },
    h('strong', {}, t.preview_title),
    ' ',
    t.preview_notice,
  )
}

/** The preview notice, the message and others' values, above the first page; none when there is nothing to say. */
export function signingContext(t: Texts, lang: Language, form: SigningForm): HTMLElement[] {
  return [previewNotice(t, form), senderMessage(t, lang, form), othersValues(t, lang, form)].filter(
    (e): e is HTMLElement => e !== null,
  )
}
