// issue #20: what `bcc_email` (docs/api.md#mail) receives for each signing request — a notice that
// the request went out, to whom, for which document, for which account — and never the signer's
// mail itself: that mail's link is the signer's credential, and whoever held a copy could sign in
// their name. So no button, no link, and none of the sender's `message` (its variables may name the
// link). Pure.
import { plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import type { MailSender } from './signing-request.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface SigningRequestCopyInput {
  documentName: string
  submissionId: string
  signer: { name: string | null; email: string }
  expiresAt: string | null
  sender: MailSender
}

export function renderSigningRequestCopy(input: SigningRequestCopyInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.signingRequestCopy
  const { name, email } = input.signer
  return renderMail({
    texts,
    subject: t.subject(input.documentName, name || email),
    heading: t.heading(input.documentName),
    paragraphs: [
      plainParagraph(t.sent(input.sender.account, input.documentName, name ? `${name} (${email})` : email)),
      plainParagraph(t.noLink),
    ],
    notes: [
      t.reference(input.submissionId),
      ...(input.expiresAt ? [t.expires(texts.formatDate(input.expiresAt))] : []),
    ],
    replyToSender: false,
    onBehalfOf: input.sender.account,
  })
}
