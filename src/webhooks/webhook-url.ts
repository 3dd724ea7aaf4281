// The SSRF guard on a webhook URL at creation (`webhook_url_rejected` in docs/api.md#endpoints):
// the rules of lib/address-policy.ts that need no network (scheme, credentials, local names, IP
// literals in any spelling Node canonicalises), then every address the name resolves to. Delivery
// checks again at connect time (lib/safe-fetch.ts): a name that later resolves elsewhere is refused
// then too. A refusal that ALLOW_PRIVATE_NETWORK_URLS would lift says so, with its risk
// (docs/api.md#endpoints): a developer with a receiver on loopback learns what to do.
import { isIP } from 'node:net'
import type { Config } from '../config.ts'
import { fieldError } from '../errors.ts'
import {
  addressRefusal,
  liftedByPrivateNetwork,
  PRIVATE_NETWORK_HINT,
  type Resolve,
  urlRefusal,
} from '../lib/address-policy.ts'
import { LIMITS } from '../limits.ts'

const rejected = (why: string) => fieldError('webhook_url_rejected', 'url', `${why}.`)
/** A refusal the setting would lift: the reason, then what to do. */
const rejectedLocal = (why: string) =>
  fieldError('webhook_url_rejected', 'url', `${why}. ${PRIVATE_NETWORK_HINT}.`)

/** Resolves when `raw` may receive webhooks; throws 422 webhook_url_rejected with the reason. */
export async function checkWebhookUrl(
  raw: string,
  config: Pick<Config, 'allowPrivateNetworkUrls'>,
  resolve: Resolve,
): Promise<void> {
  if (raw.length > LIMITS.urlLength) throw rejected(`longer than ${LIMITS.urlLength} characters`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw rejected('not a valid absolute URL')
  }
  const policy = { allowPrivateNetwork: config.allowPrivateNetworkUrls }
  // https: only, unless ALLOW_PRIVATE_NETWORK_URLS (development and tests: a receiver on loopback).
  const refusal = urlRefusal(url, { ...policy, allowHttp: config.allowPrivateNetworkUrls })
  if (refusal) {
    throw liftedByPrivateNetwork(refusal) ? rejectedLocal(refusal.message) : rejected(refusal.message)
  }
  if (url.hash) throw rejected('a fragment (#…) is never sent; remove it')
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  if (config.allowPrivateNetworkUrls || isIP(host) !== 0) return
  let answers: Awaited<ReturnType<Resolve>>
  try {
    answers = await resolve(host)
  } catch {
    throw rejected(`${host} could not be resolved`)
  }
  if (answers.length === 0) throw rejected(`${host} has no address`)
  for (const { address } of answers) {
    const why = addressRefusal(address, policy)
    if (why) throw rejectedLocal(`${host} resolves to ${address}, ${why}`)
  }
}
