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
  linkIntro: 'If the button does not work, open this link:',
  footer: {
    sentBy: 'Sent by Paraph, an electronic-signature service, on behalf of the sender.',
    replyToSender: 'Reply to this e-mail to reach the sender.',
    notExpected: 'If you did not expect this e-mail, you can ignore it.',
  },
}

/** The language of every mail today. */
export const MAIL_TEXTS: MailTexts = ENGLISH
