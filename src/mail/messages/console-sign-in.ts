// The mail with console sign-in links (docs/console.md): one link per account the
// address is a member of, with the account's name beside it; a button when there is one. Pure.
import { escapeHtml, inlineLink, plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface ConsoleSignInInput {
  links: Array<{ accountName: string; url: string }>
}

export function renderConsoleSignIn(input: ConsoleSignInInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.consoleSignIn
  const [only, ...others] = input.links
  if (!only) throw new Error('a sign-in mail needs at least one link')
  const single = others.length === 0
  const paragraphs = single
    ? [plainParagraph(t.one(only.accountName))]
    : [
        plainParagraph(t.several),
        ...input.links.map((link) => ({
          text: `${link.accountName}\n${link.url}`,
          html: `<strong>${escapeHtml(link.accountName)}</strong><br>${inlineLink(link.url)}`,
        })),
      ]
  return renderMail({
    texts,
    subject: t.subject,
    heading: t.heading,
    paragraphs,
    ...(single ? { action: { label: t.button, url: only.url } } : {}),
    notes: [t.expiry, t.notAsked],
    replyToSender: false,
    footerNote: t.footer,
  })
}
