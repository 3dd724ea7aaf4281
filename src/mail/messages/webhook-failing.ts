// The notice to an account's owner when one of its webhook endpoints becomes failing (8 failed
// attempts in a row, docs/api.md#health). No button: the fix happens on the receiver and through
// the API. Pure.
import { plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface WebhookFailingInput {
  url: string
  endpointId: string
  failures: number
  lastError: string
  disableAfterDays: number
  /** The endpoint's account, as its owner reads it: `Acme (acct_…)`. */
  account: string
}

export function renderWebhookFailing(input: WebhookFailingInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.webhookFailing
  return renderMail({
    texts,
    subject: t.subject(input.url),
    heading: t.heading,
    paragraphs: [
      plainParagraph(t.intro(input.url, input.endpointId, input.failures)),
      plainParagraph(t.lastError(input.lastError)),
      plainParagraph(t.next(input.disableAfterDays)),
      plainParagraph(t.fix(input.endpointId)),
    ],
    notes: [],
    replyToSender: false,
    ownerNoticeFor: input.account,
  })
}
