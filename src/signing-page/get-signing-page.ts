// GET /s/{slug} and GET /embed/{jwt} (docs/api.md#the-signing-page): the signing page itself. A
// plain GET changes nothing — mail scanners prefetch links — so opening is the page script's POST
// …/open. A dead link answers a person (Accept: text/html) with a page in their language and a
// program with the API's error envelope.
import { Type } from 'typebox'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { type AnyRoute, defineRoute, type HandlerInput } from '../http/define-route.ts'
import { verifyEmbedToken } from '../submissions/signing-credentials.ts'
import { embedOriginOf } from './embed-origin.ts'
import { pickLanguage } from './page/texts.ts'
import { pageAssets } from './page-assets.ts'
import {
  type LinkError,
  linkErrorHtml,
  type PageConfig,
  setPageHeaders,
  signingPageHtml,
} from './page-html.ts'
import { bySlug, byToken, type Signer, SlugParams, TokenParams } from './signer-routes.ts'

const wantsHtml = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '')

/** The page a person sees for a dead link, by the refusal's code (any other: the unknown link's). */
const LINK_ERRORS: Partial<Record<string, LinkError>> = {
  invalid_signing_token: 'invalid',
  // docs/api.md#the-signing-page: a purged submission's link says why, and nothing else.
  submission_purged: 'purged',
}

async function answerPage(
  input: Pick<HandlerInput<never>, 'headers' | 'reply'>,
  deps: Deps,
  mode: Signer['via'],
  resolve: () => Promise<Pick<PageConfig, 'embed_origin'>>,
): Promise<string> {
  const lang = pickLanguage(input.headers['accept-language'])
  const assets = await pageAssets()
  let extra: Pick<PageConfig, 'embed_origin'>
  try {
    extra = await resolve()
  } catch (error) {
    if (!(error instanceof ApiError) || !wantsHtml(input.headers.accept)) throw error
    setPageHeaders(input.reply, mode)
    const kind = LINK_ERRORS[error.code] ?? 'unknown'
    input.reply.code(kind === 'invalid' ? 401 : kind === 'purged' ? 410 : 404)
    return linkErrorHtml(assets, lang, kind)
  }
  // Other signers' images come from PUBLIC_URL's /files/… (form-values.ts), maybe another origin.
  setPageHeaders(input.reply, mode, new URL(deps.config.publicUrl).origin)
  return signingPageHtml(assets, { lang, mode, ...extra })
}

const HtmlPage = Type.Unsafe<string>({ type: 'string', contentMediaType: 'text/html' })
const description =
  'The page a signer opens: HTML that loads the page script, which reads `…/form` and shows the document. Changes nothing (opening is `POST …/open`). Strict Content-Security-Policy; `/s/` pages may not be framed, `/embed/` pages may. For `Accept: text/html`, a dead link answers an HTML page with the same status (410 for a purged submission, saying only that it was deleted).'

export const getSigningPage = defineRoute({
  operationId: 'getSigningPage',
  method: 'GET',
  url: '/s/:slug',
  summary: 'The signing page, by signing-URL slug',
  description,
  tag: 'Signing page',
  auth: 'none',
  perIpLimit: true,
  produces: 'text/html',
  schema: { params: SlugParams, response: { 200: HtmlPage } },
  errors: ['resource_not_found', 'submission_purged'],
  handler: (input, deps: Deps) =>
    answerPage(input, deps, 'link', async () => {
      await bySlug(deps, input.params.slug)
      return {}
    }),
})

export const getEmbedSigningPage = defineRoute({
  operationId: 'getEmbedSigningPage',
  method: 'GET',
  url: '/embed/:token',
  summary: 'The signing page, by embed token',
  description,
  tag: 'Signing page',
  auth: 'none',
  perIpLimit: true,
  produces: 'text/html',
  schema: { params: TokenParams, response: { 200: HtmlPage } },
  errors: ['invalid_signing_token', 'resource_not_found', 'submission_purged'],
  handler: (input, deps: Deps) =>
    answerPage(input, deps, 'embed', async () => {
      const { token } = input.params
      await byToken(deps, token)
      // The origin the page posts its messages to (embed-origin.ts).
      const claims = await verifyEmbedToken(deps.keys.embed, token, deps.clock.now())
      return { embed_origin: embedOriginOf(claims.allowed_origin, input.headers.referer) }
    }),
})

export const SIGNING_PAGE_ROUTES: AnyRoute[] = [getSigningPage, getEmbedSigningPage]
