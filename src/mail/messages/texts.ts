// Every word a mail says, in one place: a translation is another object of the same type. The
// layout (layout.ts) escapes all of it for the HTML part, so nothing here is HTML.

export interface MailTexts {
  /** BCP 47 tag of the HTML part. */
  lang: string
  /** A timestamp as a reader sees it, e.g. `23 November 2026 at 10:00 UTC`. */
  formatDate(iso: string): string
  greeting(name: string | null): string
  signingRequest: {
    subject(document: string): string
    heading(document: string): string
    /** The default message, when the sender gave no `message.body`. */
    intro(document: string): string
    button: string
    expires(date: string): string
  }
  completed: {
    subject(document: string): string
    heading(document: string): string
    intro(document: string): string
    button: string
  }
  /** To the account owner: a webhook endpoint failed 8 times in a row (api-v1 §6.4.3). */
  webhookFailing: {
    subject(url: string): string
    heading: string
    intro(url: string, id: string, failures: number): string
    lastError(reason: string): string
    next(days: number): string
    fix(id: string): string
  }
  /** Above the plain link, under the button: for clients that do not show buttons. */
  linkIntro: string
  footer: {
    sentBy: string
    replyToSender: string
    notExpected: string
  }
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
})

export const ENGLISH: MailTexts = {
  lang: 'en',
  formatDate: (iso) => `${dateFormat.format(new Date(iso))} UTC`,
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  signingRequest: {
    subject: (document) => `Please sign “${document}”`,
    heading: (document) => `Please sign “${document}”`,
    intro: (document) => `You are invited to review and sign “${document}”.`,
    button: 'Review and sign',
    expires: (date) => `This link expires on ${date}.`,
  },
  completed: {
    subject: (document) => `Signed by everyone: “${document}”`,
    heading: (document) => `“${document}” is signed`,
    intro: (document) =>
      `Everyone has signed “${document}”. The signed document is ready for you to download and keep.`,
    button: 'Download the signed document',
  },
  webhookFailing: {
    subject: (url) => `Webhook endpoint failing: ${url}`,
    heading: 'A webhook endpoint is failing',
    intro: (url, id, failures) =>
      `Paraph could not deliver events to your webhook endpoint ${url} (${id}): its last ${failures} attempts failed.`,
    lastError: (reason) => `Last error: ${reason}`,
    next: (days) =>
      `Deliveries go on being retried on their schedule. If no delivery succeeds within ${days} days of the first failure, the endpoint is disabled and receives nothing more.`,
    fix: (id) =>
      `Once the receiver is fixed, send it a test event with POST /v1/webhook_endpoints/${id}/test: an answer in the 2xx range clears the failing state and re-enables a disabled endpoint.`,
  },
  linkIntro: 'If the button does not work, open this link:',
  footer: {
    sentBy: 'Sent by Paraph, an electronic-signature service, on behalf of the sender.',
    replyToSender: 'Reply to this e-mail to reach the sender.',
    notExpected: 'If you did not expect this e-mail, you can ignore it.',
  },
}

/** The language of every mail today. */
export const MAIL_TEXTS: MailTexts = ENGLISH
