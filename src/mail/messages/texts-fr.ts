// The mails in French (MAIL_LANGUAGE=fr): the same words as ENGLISH (texts.ts), with French
// typography — a no-break space inside « » and before : ; ? ! — so a line never starts with one.
import type { MailTexts } from './texts.ts'

/** U+00A0, the no-break space French puts before double punctuation and inside guillemets. */
const NBSP = '\u00a0'
const quoted = (text: string) => `«${NBSP}${text}${NBSP}»`

const dateFormat = new Intl.DateTimeFormat('fr-FR', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
})
const dayFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' })

export const FRENCH: MailTexts = {
  lang: 'fr',
  colon: `${NBSP}:`,
  formatDate: (iso) => `${dateFormat.format(new Date(iso))} UTC`,
  greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  signingRequest: {
    subject: (document) => `Document à signer${NBSP}: ${quoted(document)}`,
    heading: (document) => `Veuillez signer ${quoted(document)}`,
    intro: (document) => `Nous vous invitons à relire et à signer ${quoted(document)}.`,
    button: 'Relire et signer',
    expires: (date) => `Ce lien expire le ${date}.`,
    requestedBy: (account, replyTo) => `Demandeur${NBSP}: ${account}${replyTo ? ` (${replyTo})` : ''}`,
    reminderSubject: (subject) => `Rappel${NBSP}: ${subject}`,
    reminderIntro: (document) => `Un rappel${NBSP}: ${quoted(document)} attend toujours votre signature.`,
  },
  signingRequestCopy: {
    subject: (document, signer) => `Envoyé pour signature${NBSP}: ${quoted(document)} à ${signer}`,
    heading: (document) => `${quoted(document)} a été envoyé pour signature`,
    sent: (account, document, signer) =>
      `${account} a envoyé ${quoted(document)} à ${signer} pour signature.`,
    noLink: `Cette copie est destinée à vos archives. Elle ne contient aucun lien de signature${NBSP}: seul le signataire peut ouvrir le document et le signer, depuis son propre e-mail.`,
    reference: (id) => `Référence${NBSP}: ${id}`,
    expires: (date) => `Le lien du signataire expire le ${date}.`,
  },
  completed: {
    subject: (document) => `Signé par tous${NBSP}: ${quoted(document)}`,
    heading: (document) => `${quoted(document)} est signé`,
    intro: (document) =>
      `Tout le monde a signé ${quoted(document)}. Le document signé est prêt${NBSP}: téléchargez-le et conservez-le.`,
    button: 'Télécharger le document signé',
  },
  webhookFailing: {
    subject: (url) => `Webhook en échec${NBSP}: ${url}`,
    heading: 'Un point de réception webhook est en échec',
    intro: (url, id, failures) =>
      `Paraph n’a pas pu livrer d’événements à votre point de réception webhook ${url} (${id})${NBSP}: ses ${failures} dernières tentatives ont échoué.`,
    lastError: (reason) => `Dernière erreur${NBSP}: ${reason}`,
    next: (days) =>
      `Les livraisons continuent d’être retentées selon leur calendrier. Si aucune ne réussit dans les ${days} jours suivant le premier échec, le point de réception est désactivé et ne reçoit plus rien.`,
    fix: (id) =>
      `Une fois le récepteur corrigé, envoyez-lui un événement de test avec POST /v1/webhook_endpoints/${id}/test${NBSP}: une réponse 2xx efface l’état d’échec et réactive un point de réception désactivé.`,
  },
  deprecationNotice: {
    subject: (route) => `Route d’API obsolète${NBSP}: ${route}`,
    heading: 'Une route d’API que vous utilisez est obsolète',
    day: (iso) => dayFormat.format(new Date(iso)),
    intro: (route, since) =>
      `Vos clés d’API de production ont appelé ${route} au cours des 30 derniers jours. Cette route est obsolète depuis le ${since}.`,
    sunset: (route, date) =>
      `${route} cessera de fonctionner après le ${date}${NBSP}: adaptez votre intégration d’ici là. En attendant, ses réponses portent les en-têtes Deprecation et Sunset.`,
    usage: (lastDay, keys) => `Dernier appel${NBSP}: le ${lastDay}, avec les clés ${keys}.`,
    details: `Ce qui change et ce qui la remplace${NBSP}:`,
    once: 'Cet avis n’est envoyé qu’une fois par route. Les appels faits avec des clés de test ne sont pas comptés.',
  },
  consoleSignIn: {
    subject: 'Votre lien de connexion à la console Paraph',
    heading: 'Connexion à Paraph',
    one: (account) =>
      `Quelqu’un, sans doute vous, a demandé à se connecter à la console Paraph du compte ${account} avec cette adresse.`,
    several: `Quelqu’un, sans doute vous, a demandé à se connecter à la console Paraph avec cette adresse, qui appartient à plusieurs comptes. Ouvrez le lien du compte voulu${NBSP}:`,
    button: 'Se connecter à Paraph',
    expiry: 'Un lien de connexion reste valable 15 minutes et ne sert qu’une fois.',
    notAsked: `Si vous ne l’avez pas demandé, ignorez cet e-mail${NBSP}: personne ne peut se connecter sans le lien.`,
    footer: 'Envoyé par Paraph, car cette adresse a demandé à se connecter à sa console.',
  },
  linkIntro: `Si le bouton ne fonctionne pas, ouvrez ce lien${NBSP}:`,
  footer: {
    sentBy: 'Envoyé par Paraph, un service de signature électronique, au nom de l’expéditeur.',
    replyToSender: 'Répondez à cet e-mail pour joindre l’expéditeur.',
    notExpected: 'Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer.',
    sentFor: (account) => `Envoyé par Paraph, un service de signature électronique, pour ${account}.`,
    replyTo: (account) => `Répondez à cet e-mail pour joindre ${account}.`,
    ownerNotice: (account) =>
      `Envoyé par Paraph à l’adresse du propriétaire du compte ${account}. Pour recevoir ces avis ailleurs, changez l’e-mail du propriétaire du compte.`,
  },
}
