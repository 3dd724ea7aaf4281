// The server-rendered pages of a sign-in link (docs/console.md): semantic HTML without script, in
// English or French by Accept-Language. They look like the console's own sign-in screen by linking
// the console's style sheet (same origin, cached for a year): the CSP allows no inline style, and a
// second style sheet would only drift from the first.
import { escapeHtml } from '../../mail/messages/layout.ts'
import { CONSOLE_ICON_LINK } from '../shell/console-page.ts'

export type PageLanguage = 'en' | 'fr'

/** The first of `en` and `fr` the browser asks for (by q-value), English otherwise. */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag?.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.q > 0 && (entry.tag === 'en' || entry.tag === 'fr'))
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return ranked[0]?.tag === 'fr' ? 'fr' : 'en'
}

const TEXTS = {
  en: {
    title: 'Sign in to Paraph',
    intro: 'You are signing in to the Paraph console of',
    button: 'Sign in',
    once: 'The link works once, for 15 minutes after it was sent.',
    spentTitle: 'This link has expired or was already used',
    spent: 'A sign-in link is valid for 15 minutes and works once.',
    unknownTitle: 'Unknown sign-in link',
    unknown: 'This sign-in link does not exist. Check that you copied all of it.',
    refusedTitle: 'Sign-in refused',
    refused: 'This sign-in form was sent from another site.',
    askAgain: 'Ask for a new link',
  },
  fr: {
    title: 'Connexion à Paraph',
    intro: 'Vous vous connectez à la console Paraph du compte',
    button: 'Se connecter',
    once: 'Le lien ne sert qu’une fois, dans les 15 minutes qui suivent son envoi.',
    spentTitle: 'Ce lien a expiré ou a déjà servi',
    spent: 'Un lien de connexion reste valable 15 minutes et ne sert qu’une fois.',
    unknownTitle: 'Lien de connexion inconnu',
    unknown: 'Ce lien de connexion n’existe pas. Vérifiez que vous l’avez copié en entier.',
    refusedTitle: 'Connexion refusée',
    refused: 'Ce formulaire de connexion a été envoyé depuis un autre site.',
    askAgain: 'Demander un nouveau lien',
  },
} as const

function page(language: PageLanguage, stylesheet: string, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Paraph</title>
${CONSOLE_ICON_LINK}
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
<main class="sign-in" id="main">
<div class="sign-in-card">
<p class="brand" aria-hidden="true"><span class="brand-mark">P</span> Paraph</p>
<h1>${escapeHtml(title)}</h1>
${body}
</div>
</main>
</body>
</html>
`
}

/**
 * The one-button page: a mail scanner following the GET link consumes nothing. `stylesheet` is the
 * console's (consoleAssets().stylesheet).
 */
export function signInPage(
  language: PageLanguage,
  stylesheet: string,
  accountName: string,
  action: string,
): string {
  const t = TEXTS[language]
  return page(
    language,
    stylesheet,
    t.title,
    `<p>${escapeHtml(t.intro)} <strong class="account-name">${escapeHtml(accountName)}</strong>.</p>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" class="button primary block">${escapeHtml(t.button)}</button>
</form>
<p class="muted small sign-in-note">${escapeHtml(t.once)}</p>`,
  )
}

export type SignInProblem = 'spent' | 'unknown' | 'refused'

export function signInProblemPage(
  language: PageLanguage,
  stylesheet: string,
  problem: SignInProblem,
): string {
  const t = TEXTS[language]
  const [title, text] =
    problem === 'spent'
      ? [t.spentTitle, t.spent]
      : problem === 'unknown'
        ? [t.unknownTitle, t.unknown]
        : [t.refusedTitle, t.refused]
  return page(
    language,
    stylesheet,
    title,
    `<p>${escapeHtml(text)}</p>
<p><a class="button primary block" href="/console/sign-in">${escapeHtml(t.askAgain)}</a></p>`,
  )
}
