// The HTML of the signing page: a small shell that loads the page's script (which reads the
// signer's form and draws everything), and the error pages a person sees for a dead link. Also the
// headers every page response carries: a strict Content-Security-Policy (nothing from outside
// Paraph, no inline script), no referrer (the URL is the signer's credential), no caching, and
// framing allowed only in embed mode.

import { fill, type Language, TEXTS, type TextKey } from './page/texts.ts'
import type { Signer } from './signer-routes.ts'

export interface PageHeaders {
  header(name: string, value: string): unknown
}

/** The JSON the shell hands to the page's script, in a data block (not executed, so CSP-safe). */
export interface PageConfig {
  lang: Language
  mode: Signer['via']
  /** Embed mode only, the one origin the page posts its messages to (embed-origin.ts); null: none. */
  embed_origin?: string | null
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `</script>` can never end the data block early: `<` is written as its JSON escape. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * `imageOrigin`: the origin of PUBLIC_URL, where other signers' signature images are served
 * (`/files/…`) when it is not the page's own (SIGNING_URL on another host).
 */
export function setPageHeaders(reply: PageHeaders, mode: Signer['via'], imageOrigin?: string): void {
  const framing = mode === 'embed' ? '*' : "'none'"
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' data: blob:${imageOrigin ? ` ${imageOrigin}` : ''}`,
      "font-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      `frame-ancestors ${framing}`,
    ].join('; '),
  )
  if (mode === 'link') reply.header('x-frame-options', 'DENY')
  reply.header('referrer-policy', 'no-referrer')
  reply.header('x-content-type-options', 'nosniff')
  reply.header('cache-control', 'no-store')
  reply.header('content-type', 'text/html; charset=utf-8')
}

interface Shell {
  lang: Language
  title: string
  stylesheet: string
  body: string
  script?: string
  config?: PageConfig
}

function page(shell: Shell): string {
  const texts = TEXTS[shell.lang]
  return `<!doctype html>
<html lang="${shell.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(shell.title)}</title>
<link rel="stylesheet" href="${shell.stylesheet}">
</head>
<body>
<main id="app" class="app">${shell.body}</main>
${shell.config ? `<script type="application/json" id="paraph-config">${jsonForScript(shell.config)}</script>` : ''}
${shell.script ? `<script src="${shell.script}" defer></script>\n<noscript><p class="notice">${escapeHtml(texts.no_script)}</p></noscript>` : ''}
</body>
</html>
`
}

/** The page a signer's link opens: a loading line until the script has drawn the form. */
export function signingPageHtml(assets: { script: string; stylesheet: string }, config: PageConfig): string {
  const texts = TEXTS[config.lang]
  return page({
    lang: config.lang,
    title: texts.page_title_plain,
    stylesheet: assets.stylesheet,
    script: assets.script,
    config,
    body: `<p class="loading" role="status">${escapeHtml(texts.loading)}</p>`,
  })
}

/** A dead link, for a person: what happened and what to do, in their language. */
export type LinkError = 'unknown' | 'invalid' | 'purged'

const LINK_ERROR_TEXTS = {
  unknown: ['link_unknown_title', 'link_unknown_body'],
  invalid: ['link_invalid_title', 'link_invalid_body'],
  purged: ['link_purged_title', 'link_purged_body'],
} as const satisfies Record<LinkError, [TextKey, TextKey]>

export function linkErrorHtml(assets: { stylesheet: string }, lang: Language, kind: LinkError): string {
  const texts = TEXTS[lang]
  const [titleKey, bodyKey] = LINK_ERROR_TEXTS[kind]
  const title = texts[titleKey]
  const body = texts[bodyKey]
  return page({
    lang,
    title,
    stylesheet: assets.stylesheet,
    body: `<section class="screen"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(fill(body, {}))}</p></section>`,
  })
}
