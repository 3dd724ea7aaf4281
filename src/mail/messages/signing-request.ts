// The signing request (and, marked as such, its reminders): who asks (the account's name, and `reply_to` when given), the
// sender's `message.subject` and `message.body` with their variables filled in (or the default
// wording), then always the button and the link, and the expiry. Pure: rendered when the request
// is queued, in the transaction of the change that caused it.
import {
  escapeHtml,
  inlineLink,
  type Paragraph,
  plainParagraph,
  type RenderedMail,
  renderMail,
} from './layout.ts'
import { MAIL_TEXTS, type MailTexts } from './texts.ts'
import { fillVariables, type MailVariable } from './variables.ts'

export interface SigningRequestInput {
  documentName: string
  submissionId: string
  signer: { name: string | null; email: string }
  signingUrl: string
  expiresAt: string | null
  /** The sender's own wording (`message`: docs/api.md#variables), variables unfilled. */
  message: { subject: string | null; body: string | null }
  /** Who asks: the account's name, and the submission's `reply_to` (the Reply-To header). */
  sender: MailSender
  /** docs/api.md#reminders: the same request again, its subject marked and a first line saying so. */
  reminder?: boolean
}

export interface MailSender {
  account: string
  replyTo: string | null
}

function variableValues(input: SigningRequestInput, texts: MailTexts): (name: MailVariable) => string {
  const values: Record<MailVariable, string> = {
    'submitter.name': input.signer.name || input.signer.email,
    'submitter.email': input.signer.email,
    'submitter.signing_url': input.signingUrl,
    'document.name': input.documentName,
    'submission.id': input.submissionId,
    'submission.expires_at': input.expiresAt ? texts.formatDate(input.expiresAt) : '',
  }
  return (name) => values[name]
}

/** The sender's body: paragraphs at blank lines, line breaks kept, the link variable a link in HTML. */
function bodyParagraphs(body: string, value: (name: MailVariable) => string): Paragraph[] {
  const htmlValue = (name: MailVariable) =>
    name === 'submitter.signing_url' ? inlineLink(value(name)) : escapeHtml(value(name))
  const htmlLiteral = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>')
  return body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => block.replace(/^\s+|\s+$/g, ''))
    .filter((block) => block !== '')
    .map((block) => ({
      text: fillVariables(block, value),
      html: fillVariables(block, htmlValue, htmlLiteral),
    }))
}

export function renderSigningRequest(input: SigningRequestInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.signingRequest
  const value = variableValues(input, texts)
  const subject = input.message.subject ? fillVariables(input.message.subject, value).trim() : ''
  const body = input.message.body ? bodyParagraphs(input.message.body, value) : []
  const request = subject || t.subject(input.documentName)
  const paragraphs =
    body.length > 0
      ? body
      : [plainParagraph(texts.greeting(input.signer.name)), plainParagraph(t.intro(input.documentName))]
  return renderMail({
    texts,
    subject: input.reminder ? t.reminderSubject(request) : request,
    heading: t.heading(input.documentName),
    paragraphs: input.reminder
      ? [plainParagraph(t.reminderIntro(input.documentName)), ...paragraphs]
      : paragraphs,
    action: { label: t.button, url: input.signingUrl },
    notes: input.expiresAt ? [t.expires(texts.formatDate(input.expiresAt))] : [],
    replyToSender: input.sender.replyTo !== null,
    byline: input.sender.account.trim()
      ? t.requestedBy(input.sender.account, input.sender.replyTo)
      : undefined,
    onBehalfOf: input.sender.account,
  })
}
