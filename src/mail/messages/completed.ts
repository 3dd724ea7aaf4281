// The completion notice: everyone signed; the link is the signer's own signing URL, whose page
// then shows the completed document and its download. Pure.
import { plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface CompletedInput {
  documentName: string
  signer: { name: string | null }
  signingUrl: string
  hasReplyTo: boolean
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
    replyToSender: input.hasReplyTo,
  })
}
