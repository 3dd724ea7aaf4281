// The one look of every mail: an HTML part that common clients (Gmail, Outlook, Apple Mail, phones)
// show the same way — nested tables, inline styles, no external image, font or stylesheet, a
// "bulletproof" button (a coloured table cell around the link) — and a plain-text part saying the
// same. Everything given is text: it is escaped here, and only here. Pure.
import type { MailTexts } from './texts.ts'

/** A paragraph in both parts; `html` is already safe (escaped by whoever built it). */
export interface Paragraph {
  text: string
  html: string
}

export interface MailContent {
  texts: MailTexts
  subject: string
  heading: string
  paragraphs: Paragraph[]
  /** The button, and the same link in plain text below it (every mail to a signer has one). */
  action?: { label: string; url: string }
  /** Small print under the link (the expiry). */
  notes: string[]
  /** The sender set `reply_to`: the footer says a reply reaches them. */
  replyToSender: boolean
  /** A short line under the heading, first in the text part: who asks. */
  byline?: string
  /** The account the mail is sent for: the footer names it instead of "the sender". */
  onBehalfOf?: string
  /**
   * A notice to this account's owner (a failing webhook endpoint, a deprecation): sent on nobody's
   * behalf, so the footer says why this address receives it instead.
   */
  ownerNoticeFor?: string
  /** A mail to a person about their own request (a console sign-in link): the footer says only this. */
  footerNote?: string
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
}

/** A header must stay on one line: line breaks and runs of spaces become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** A line of the body: line breaks become spaces; other spaces (French no-break ones) are kept. */
const unbroken = (text: string) => text.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ').trim()

/** Plain text as a paragraph: escaped, its line breaks kept. */
export function plainParagraph(text: string): Paragraph {
  return { text, html: escapeHtml(text).replace(/\r?\n/g, '<br>') }
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
const ACCENT = '#1d4ed8'

/** A link in a paragraph (the signing-link variable in the HTML part). */
export function inlineLink(url: string): string {
  return `<a href="${escapeHtml(url)}" target="_blank" style="color:${ACCENT};text-decoration:underline;word-break:break-all;">${escapeHtml(url)}</a>`
}

// A long unbroken name (a file name) wraps instead of widening the card past a phone's screen.
const cell = (style: string, content: string) =>
  `<tr><td style="font-family:${FONT};word-break:break-word;overflow-wrap:anywhere;${style}">${content}</td></tr>`

function button(label: string, url: string): string {
  const href = escapeHtml(url)
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT};"><a href="${href}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;line-height:20px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a></td></tr></table>`
}

function footerLines(content: MailContent): string[] {
  const { footer } = content.texts
  if (content.ownerNoticeFor !== undefined) return [footer.ownerNotice(content.ownerNoticeFor)]
  if (content.footerNote !== undefined) return [content.footerNote]
  const account = content.onBehalfOf === undefined ? undefined : unbroken(content.onBehalfOf)
  const sentBy = account ? footer.sentFor(account) : footer.sentBy
  const replyTo = account ? footer.replyTo(account) : footer.replyToSender
  return [sentBy, ...(content.replyToSender ? [replyTo] : []), footer.notExpected]
}

function htmlPart(content: MailContent): string {
  const { texts, action } = content
  const paragraphs = content.paragraphs
    .map((p) => cell('padding:0 28px 16px;font-size:16px;line-height:24px;color:#1f2937;', p.html))
    .join('')
  const notes = content.notes
    .map((n) => cell('padding:0 28px 8px;font-size:14px;line-height:20px;color:#4b5563;', escapeHtml(n)))
    .join('')
  const byline = content.byline === undefined ? undefined : unbroken(content.byline)
  const card = [
    cell(
      `padding:28px 28px ${byline ? 6 : 16}px;font-size:22px;line-height:28px;font-weight:bold;color:#111827;`,
      escapeHtml(content.heading),
    ),
    ...(byline
      ? [cell('padding:0 28px 20px;font-size:14px;line-height:20px;color:#4b5563;', escapeHtml(byline))]
      : []),
    paragraphs,
    ...(action
      ? [
          cell('padding:8px 28px 24px;', button(action.label, action.url)),
          cell(
            'padding:0 28px 16px;font-size:14px;line-height:20px;color:#4b5563;',
            `${escapeHtml(texts.linkIntro)}<br>${inlineLink(action.url)}`,
          ),
        ]
      : []),
    notes,
    '<tr><td style="height:20px;line-height:20px;font-size:0;">&nbsp;</td></tr>',
  ].join('')
  const footer = footerLines(content)
    .map((line) => escapeHtml(line))
    .join('<br>')
  // Outlook for Windows ignores max-width: the conditional table holds the card at 600 px there.
  return `<!DOCTYPE html>
<html lang="${escapeHtml(texts.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;-webkit-text-size-adjust:100%;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<!--[if mso]><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;">
${card}
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
${cell('padding:16px 28px;font-size:12px;line-height:18px;color:#6b7280;text-align:center;', footer)}
</table>
<!--[if mso]></td></tr></table><![endif]-->
</td></tr>
</table>
</body>
</html>
`
}

function textPart(content: MailContent): string {
  const blocks = [
    ...(content.byline ? [unbroken(content.byline)] : []),
    ...content.paragraphs.map((p) => p.text),
    ...(content.action
      ? [`${content.action.label}${content.texts.colon ?? ':'}\n${content.action.url}`]
      : []),
    ...content.notes,
    `--\n${footerLines(content).join('\n')}`,
  ]
  return `${blocks.join('\n\n')}\n`
}

export function renderMail(content: MailContent): RenderedMail {
  return { subject: oneLine(content.subject), text: textPart(content), html: htmlPart(content) }
}
