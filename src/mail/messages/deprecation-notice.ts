// The notice to an account's owner when its live keys called a deprecated route in the last 30
// days (docs/deprecations.md#telling-the-developers): which route, since when, until when, the last
// call and the keys that made it, and where the change is described. No button: the fix is in their
// code. Pure.
import {
  escapeHtml,
  inlineLink,
  type Paragraph,
  plainParagraph,
  type RenderedMail,
  renderMail,
} from './layout.ts'
import { MAIL_TEXTS } from './texts.ts'

export interface DeprecationNoticeInput {
  /** Method and pattern: `GET /v1/submissions/:id`. */
  route: string
  /** ISO 8601 dates of the route's definition. */
  since: string
  sunset: string
  link: string | null
  /** `YYYY-MM-DD` (UTC) of the latest call by one of the account's live keys. */
  lastCallDay: string
  /** Hints of the keys that called it (`sk_live_AbCd…`), never the keys. */
  keyHints: string[]
  /** The account told, as its owner reads it: `Acme (acct_…)`. */
  account: string
}

function linkParagraph(label: string, url: string): Paragraph {
  return { text: `${label}\n${url}`, html: `${escapeHtml(label)}<br>${inlineLink(url)}` }
}

export function renderDeprecationNotice(input: DeprecationNoticeInput, texts = MAIL_TEXTS): RenderedMail {
  const t = texts.deprecationNotice
  // As developers read it in the OpenAPI document and the API guide: `/v1/submissions/{id}`.
  const route = input.route.replace(/:([A-Za-z_]+)/g, '{$1}')
  return renderMail({
    texts,
    subject: t.subject(route),
    heading: t.heading,
    paragraphs: [
      plainParagraph(t.intro(route, t.day(input.since))),
      plainParagraph(t.sunset(route, t.day(input.sunset))),
      plainParagraph(t.usage(t.day(input.lastCallDay), input.keyHints.join(', '))),
      ...(input.link ? [linkParagraph(t.details, input.link)] : []),
      plainParagraph(t.once),
    ],
    notes: [],
    replyToSender: false,
    ownerNoticeFor: input.account,
  })
}
