// The e-mail code mail (`email_2fa/send` in docs/api.md#e-mail-code-2fa): HTML and text in the
// shared layout, naming the document and who asks for the signature (the account's name), the
// validity as "10 minutes" (no clock time, so no time zone to get wrong), in the signer's language.
// The sender's subject template is never quoted. Pure: rendered when the mail job runs, the only
// moment the code exists (signing-page/email-code.ts).
import { escapeHtml, type Paragraph, plainParagraph, type RenderedMail, renderMail } from './layout.ts'
import { ENGLISH, type MailTexts } from './texts.ts'
import { FRENCH } from './texts-fr.ts'

export interface EmailCodeMailInput {
  /** `en`, `fr`, `de` or `es`; any other language gets English. */
  language: string
  documentName: string
  /** The account's name: who asked for the signature. */
  senderName: string
  signerName: string | null
  code: string
}

interface EmailCodeTexts {
  layout: Pick<MailTexts, 'lang' | 'linkIntro' | 'footer'>
  greeting(name: string | null): string
  subject(document: string): string
  intro(sender: string, document: string): string
  validity: string
  notYou: string
}

const NBSP = '\u00a0'

const TEXTS: Record<'en' | 'fr' | 'de' | 'es', EmailCodeTexts> = {
  en: {
    layout: ENGLISH,
    greeting: ENGLISH.greeting,
    subject: (document) => `Your code to open “${document}”`,
    intro: (sender, document) =>
      `${sender} asked you to sign “${document}”. To open the document, enter this code on the signing page:`,
    validity: 'The code is valid for 10 minutes and can be used once.',
    notYou:
      'If you did not ask for this code, ignore this e-mail: nobody can open the document in your name without it.',
  },
  fr: {
    layout: FRENCH,
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    subject: (document) => `Votre code pour ouvrir «${NBSP}${document}${NBSP}»`,
    intro: (sender, document) =>
      `${sender} vous demande de signer «${NBSP}${document}${NBSP}». Pour ouvrir le document, saisissez ce code sur la page de signature${NBSP}:`,
    validity: 'Ce code est valable 10 minutes et ne sert qu’une fois.',
    notYou: `Si vous n’avez pas demandé ce code, ignorez cet e-mail${NBSP}: personne ne peut ouvrir le document à votre place sans lui.`,
  },
  de: {
    layout: {
      lang: 'de',
      linkIntro: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
      footer: {
        sentBy: 'Gesendet von Paraph, einem Dienst für elektronische Signaturen, im Auftrag des Absenders.',
        replyToSender: 'Antworten Sie auf diese E-Mail, um den Absender zu erreichen.',
        notExpected: 'Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.',
        sentFor: (account) =>
          `Gesendet von Paraph, einem Dienst für elektronische Signaturen, im Auftrag von ${account}.`,
        replyTo: (account) => `Antworten Sie auf diese E-Mail, um ${account} zu erreichen.`,
        ownerNotice: (account) => `Von Paraph an die Inhaberadresse des Kontos ${account} gesendet.`,
      },
    },
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    subject: (document) => `Ihr Code zum Öffnen von „${document}“`,
    intro: (sender, document) =>
      `${sender} bittet Sie, „${document}“ zu unterschreiben. Geben Sie zum Öffnen des Dokuments diesen Code auf der Unterschriftsseite ein:`,
    validity: 'Der Code ist 10 Minuten lang gültig und kann einmal verwendet werden.',
    notYou:
      'Wenn Sie diesen Code nicht angefordert haben, ignorieren Sie diese E-Mail: Ohne ihn kann niemand das Dokument in Ihrem Namen öffnen.',
  },
  es: {
    layout: {
      lang: 'es',
      linkIntro: 'Si el botón no funciona, abra este enlace:',
      footer: {
        sentBy: 'Enviado por Paraph, un servicio de firma electrónica, en nombre del remitente.',
        replyToSender: 'Responda a este correo para contactar con el remitente.',
        notExpected: 'Si no esperaba este correo, puede ignorarlo.',
        sentFor: (account) =>
          `Enviado por Paraph, un servicio de firma electrónica, en nombre de ${account}.`,
        replyTo: (account) => `Responda a este correo para contactar con ${account}.`,
        ownerNotice: (account) => `Enviado por Paraph a la dirección del titular de la cuenta ${account}.`,
      },
    },
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    subject: (document) => `Su código para abrir «${document}»`,
    intro: (sender, document) =>
      `${sender} le pide que firme «${document}». Para abrir el documento, introduzca este código en la página de firma:`,
    validity: 'El código es válido durante 10 minutos y solo puede usarse una vez.',
    notYou:
      'Si no ha solicitado este código, ignore este correo: nadie puede abrir el documento en su nombre sin él.',
  },
}

function textsFor(language: string): EmailCodeTexts {
  return Object.hasOwn(TEXTS, language) ? TEXTS[language as keyof typeof TEXTS] : TEXTS.en
}

/** The code on a line of its own: large and spaced in HTML, indented in the text part. */
function codeParagraph(code: string): Paragraph {
  const style =
    "display:inline-block;padding:8px 16px;font-family:'SFMono-Regular',Consolas,'Liberation Mono',Menlo,monospace;font-size:32px;line-height:40px;letter-spacing:8px;font-weight:bold;color:#111827;background-color:#f3f4f6;border-radius:6px;"
  return { text: `    ${code}`, html: `<span style="${style}">${escapeHtml(code)}</span>` }
}

export function renderEmailCodeMail(input: EmailCodeMailInput): RenderedMail {
  const t = textsFor(input.language)
  const subject = t.subject(input.documentName)
  return renderMail({
    texts: { ...ENGLISH, ...t.layout },
    subject,
    heading: subject,
    paragraphs: [
      plainParagraph(t.greeting(input.signerName)),
      plainParagraph(t.intro(input.senderName, input.documentName)),
      codeParagraph(input.code),
    ],
    notes: [t.validity, t.notYou],
    replyToSender: false,
  })
}
