// Every word a mail says, in one place: a translation is another object of the same type
// (texts-fr.ts). The layout (layout.ts) escapes all of it for the HTML part, so nothing here is HTML.
import { FRENCH } from './texts-fr.ts'

export interface MailTexts {
  /** BCP 47 tag of the HTML part. */
  lang: string
  /** What follows a label before a link in the text part: `:` (French: a no-break space first). */
  colon?: string
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
    /** Who asks — the account's name, and the submission's `reply_to` when it has one. */
    requestedBy(account: string, replyTo: string | null): string
    /** A reminder (docs/api.md#reminders): the request's subject, marked as one. */
    reminderSubject(subject: string): string
    /** A reminder's first line, before the request's own wording. */
    reminderIntro(document: string): string
  }
  /**
   * What `bcc_email` receives instead of the signer's own mail — that the request went
   * out, to whom, for which document — never the signer's link.
   */
  signingRequestCopy: {
    subject(document: string, signer: string): string
    heading(document: string): string
    sent(account: string, document: string, signer: string): string
    noLink: string
    reference(submissionId: string): string
    expires(date: string): string
  }
  completed: {
    subject(document: string): string
    heading(document: string): string
    intro(document: string): string
    button: string
  }
  /** To the account owner: a webhook endpoint failed 8 times in a row (docs/api.md#health). */
  webhookFailing: {
    subject(url: string): string
    heading: string
    intro(url: string, id: string, failures: number): string
    lastError(reason: string): string
    next(days: number): string
    fix(id: string): string
  }
  /**
   * To the account owner: their live keys called a deprecated route in the last 30 days
   * (docs/deprecations.md#telling-the-developers, `paraph deprecations notify`); sent once per
   * route and account.
   */
  deprecationNotice: {
    subject(route: string): string
    heading: string
    /** A date without its time, e.g. `1 June 2027`. */
    day(iso: string): string
    intro(route: string, since: string): string
    sunset(route: string, date: string): string
    usage(lastDay: string, keys: string): string
    details: string
    once: string
  }
  /**
   * To a console member who asked to sign in: one link per account of the address,
   * each valid 15 minutes and once.
   */
  consoleSignIn: {
    subject: string
    heading: string
    /** The address is a member of one account. */
    one(account: string): string
    /** The address is a member of several accounts: one link each follows. */
    several: string
    button: string
    expiry: string
    notAsked: string
    /** The footer: why this address receives the mail. */
    footer: string
  }
  /** Above the plain link, under the button: for clients that do not show buttons. */
  linkIntro: string
  footer: {
    sentBy: string
    replyToSender: string
    notExpected: string
    /** The same two lines when the account is known (the mail says who asks). */
    sentFor(account: string): string
    replyTo(account: string): string
    /** The only line of a notice to an account's owner (not sent on anyone's behalf). */
    ownerNotice(account: string): string
  }
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
})
const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

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
    requestedBy: (account, replyTo) => `Requested by ${account}${replyTo ? ` (${replyTo})` : ''}`,
    reminderSubject: (subject) => `Reminder: ${subject}`,
    reminderIntro: (document) => `A reminder: “${document}” is still waiting for your signature.`,
  },
  signingRequestCopy: {
    subject: (document, signer) => `Sent for signature: “${document}” to ${signer}`,
    heading: (document) => `“${document}” was sent for signature`,
    sent: (account, document, signer) => `${account} sent “${document}” to ${signer} for signature.`,
    noLink:
      'This copy is for your records. It holds no signing link: only the signer can open the document and sign it, from their own e-mail.',
    reference: (id) => `Reference: ${id}`,
    expires: (date) => `The signer’s link expires on ${date}.`,
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
  deprecationNotice: {
    subject: (route) => `Deprecated API route: ${route}`,
    heading: 'An API route you use is deprecated',
    day: (iso) => dayFormat.format(new Date(iso)),
    intro: (route, since) =>
      `Your live API keys called ${route} in the last 30 days. This route has been deprecated since ${since}.`,
    sunset: (route, date) =>
      `${route} stops working after ${date}: move your integration off it before then. Its answers carry the Deprecation and Sunset headers meanwhile.`,
    usage: (lastDay, keys) => `Last call: ${lastDay}, with the keys ${keys}.`,
    details: 'What changes and what to use instead:',
    once: 'This notice is sent once per route. Calls with test keys are not counted.',
  },
  consoleSignIn: {
    subject: 'Your sign-in link to the Paraph console',
    heading: 'Sign in to Paraph',
    one: (account) =>
      `Someone, probably you, asked to sign in to the Paraph console of ${account} with this address.`,
    several:
      'Someone, probably you, asked to sign in to the Paraph console with this address, which belongs to several accounts. Open the link of the account you want:',
    button: 'Sign in to Paraph',
    expiry: 'A sign-in link is valid for 15 minutes and works once.',
    notAsked: 'If you did not ask for it, ignore this e-mail: nobody can sign in without the link.',
    footer: 'Sent by Paraph because this address asked to sign in to its console.',
  },
  linkIntro: 'If the button does not work, open this link:',
  footer: {
    sentBy: 'Sent by Paraph, an electronic-signature service, on behalf of the sender.',
    replyToSender: 'Reply to this e-mail to reach the sender.',
    notExpected: 'If you did not expect this e-mail, you can ignore it.',
    sentFor: (account) => `Sent by Paraph, an electronic-signature service, on behalf of ${account}.`,
    replyTo: (account) => `Reply to this e-mail to reach ${account}.`,
    ownerNotice: (account) =>
      `Sent by Paraph to the owner address of the account ${account}. To have these notices sent elsewhere, change the account's owner e-mail.`,
  },
}

/** The mails' languages; MAIL_LANGUAGE (config.ts) picks one for every mail of the instance. */
export const MAIL_LANGUAGES = ['en', 'fr'] as const
export type MailLanguage = (typeof MAIL_LANGUAGES)[number]

const BY_LANGUAGE: Record<MailLanguage, MailTexts> = { en: ENGLISH, fr: FRENCH }

export function mailTexts(language: MailLanguage): MailTexts {
  return BY_LANGUAGE[language]
}

/** The default language (MAIL_LANGUAGE unset), and the renderers' default. */
export const MAIL_TEXTS: MailTexts = ENGLISH
