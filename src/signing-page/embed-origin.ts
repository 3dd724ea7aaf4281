// The embed page (docs/signing.md#embedding) posts `paraph:opened`, `paraph:signed` and
// `paraph:declined` to the page that frames it, and to that page's origin only, never to '*'. The
// origin is the embed token's `allowed_origin` when the client gave one (POST
// /v1/submitters/{id}/embed_token), else the origin of the Referer the framing page sent when it
// loaded the embed URL, else none (the page posts nothing). Pure.
import { fieldError } from '../errors.ts'

/** Hosts where plain http: is accepted, for a client developing on its own machine. */
const DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1'])

/** `scheme://host[:port]` and nothing more: no path, query, fragment or user name. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s\\]+$/i

const notAnOrigin = (raw: string) =>
  fieldError(
    'invalid_request',
    'allowed_origin',
    `must be an origin such as https://app.example.com (https:, a host and an optional port, no path), or http://localhost or http://127.0.0.1 with an optional port for development (got "${raw.slice(0, 100)}")`,
  )

/** The origin as a browser serializes it (lower-case host, no default port); invalid_request otherwise. */
export function parseAllowedOrigin(raw: string): string {
  if (!ORIGIN_SHAPE.test(raw) || !URL.canParse(raw)) throw notAnOrigin(raw)
  const url = new URL(raw)
  if (url.protocol === 'http:' && !DEVELOPMENT_HOSTS.has(url.hostname)) throw notAnOrigin(raw)
  return url.origin
}

/** The origin the embed page posts to: the token's claim, else the Referer's http(s) origin, else null. */
export function embedOriginOf(allowedOrigin: string | undefined, referer: string | undefined): string | null {
  if (allowedOrigin) return allowedOrigin
  if (!referer || !URL.canParse(referer)) return null
  const url = new URL(referer)
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null
}
