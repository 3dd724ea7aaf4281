// The completion notice: everyone signed; the link is the signer's own signing URL, whose page
// then shows the completed document and its download. Pure.
import { plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import type { MailSender } from './signing-request.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface CompletedInput {
  documentName: string
  signer: { name: string | null }
  signingUrl: string
  /** The account the submission belongs to, and its `reply_to`: the footer names them. */
  sender: MailSender
}

export function renderCompleted(input: CompletedInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.completed
  return renderMail({
    texts,
    subject: t.subject(input.documentName),
    heading: t.heading(input.documentName),
    paragraphs: [
      plainParagraph(texts.greeting(input.signer.name)),
      plainParagraph(t.intro(input.documentName)),
    ],
    action: { label: t.button, url: input.signingUrl },
    notes: [],
    replyToSender: input.sender.replyTo !== null,
    onBehalfOf: input.sender.account,
  })
}
