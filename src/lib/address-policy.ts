// The SSRF rules of docs/security.md#ssrf-guard: which URLs, host names and IP addresses a request to
// a user-supplied URL may reach, and the connect-time DNS lookup that enforces the address rule.
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export interface AddressPolicy {
  /** Development and tests: every address and the localhost names are allowed. */
  allowPrivateNetwork: boolean
  /** Exact addresses allowed although the policy refuses them (an on-premises receiver; tests). */
  allowAddresses?: readonly string[]
}

export interface UrlPolicy extends AddressPolicy {
  allowHttp: boolean
}

export interface UrlRefusal {
  reason: 'invalid_url' | 'scheme_not_allowed' | 'host_not_allowed' | 'address_not_allowed'
  message: string
}

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>
/** Makes the error the connection fails with (safe-fetch's own error class). */
export type Refuse = (reason: 'address_not_allowed' | 'dns_failed', message: string, cause?: unknown) => Error

// Azure's wire server classifies as unicast, yet it hands out instance credentials.
const DENIED = new Set(['168.63.129.16'])

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
}

/**
 * What to do about a refusal that ALLOW_PRIVATE_NETWORK_URLS lifts (http:, a local name, a loopback
 * or private address), with its risk: docs/security.md#ssrf-guard. Appended to such refusals only
 * while the setting is off.
 */
export const PRIVATE_NETWORK_HINT =
  'For a server on your own machine or network during development, start Paraph with ALLOW_PRIVATE_NETWORK_URLS=true ' +
  '(it allows http: and loopback and private addresses; never in production: anyone holding an API key could then make ' +
  'Paraph call your internal network and cloud metadata), or expose that server at a public https: URL through a tunnel'

/**
 * Whether ALLOW_PRIVATE_NETWORK_URLS=true would lift this refusal (urlRefusal's, or the connect-time
 * one of safe-fetch, same reasons and messages): http:, a local name, a refused address.
 */
export function liftedByPrivateNetwork(refusal: { reason: string; message: string }): boolean {
  if (refusal.reason === 'scheme_not_allowed') return refusal.message.startsWith('http: ')
  return refusal.reason === 'host_not_allowed' || refusal.reason === 'address_not_allowed'
}

/** Why the address may not be reached ("a private address"), or undefined when it may. */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  if (policy.allowPrivateNetwork) return undefined
  // Only what Node itself treats as an IP literal: ipaddr.js also parses "127.1" and octal forms.
  if (isIP(address) === 0) return 'not an IP address'
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    // process() unwraps IPv4-mapped IPv6 (::ffff:127.0.0.1), so the IPv4 rules apply to it.
    parsed = ipaddr.process(address)
  } catch {
    return 'not an IP address'
  }
  const canonical = parsed.toString()
  if (policy.allowAddresses?.some((allowed) => sameAddress(allowed, canonical))) return undefined
  if (DENIED.has(canonical)) return 'a cloud platform address'
  const range = parsed.range()
  if (range === 'unicast') return undefined
  return RANGE_WORDS[range] ?? `a non-public address (${range})`
}

export function isAllowedAddress(address: string, allowPrivateNetwork: boolean): boolean {
  return addressRefusal(address, { allowPrivateNetwork }) === undefined
}

/** localhost, localhost. and *.localhost resolve to loopback on many systems without DNS (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '')
  return name === 'localhost' || name.endsWith('.localhost')
}

/**
 * The rules that need no DNS: scheme, credentials, host name and IP-literal host. Run on the first
 * URL and on every redirect target; names are checked again on their resolved addresses at connect time.
 */
export function urlRefusal(url: URL, policy: UrlPolicy): UrlRefusal | undefined {
  const host = url.hostname
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    const allowed = policy.allowHttp ? 'https: and http:' : 'https:'
    return { reason: 'scheme_not_allowed', message: `${url.protocol} URLs are not allowed, only ${allowed}` }
  }
  if (url.username !== '' || url.password !== '') {
    return { reason: 'invalid_url', message: `the URL for ${host} carries credentials (user:password@)` }
  }
  if (!policy.allowPrivateNetwork && isLocalhostName(host)) {
    return { reason: 'host_not_allowed', message: `${host} is a local host name` }
  }
  // Node connects to IP literals without a lookup, so the connect-time check never sees them.
  const literal = host.startsWith('[') ? host.slice(1, -1) : host
  const refusal = isIP(literal) === 0 ? undefined : addressRefusal(literal, policy)
  if (refusal) return { reason: 'address_not_allowed', message: `${host} is ${refusal}` }
  return undefined
}

/**
 * A lookup for net.connect: resolves, refuses the connection unless every answer is allowed, and hands
 * net only the checked addresses, so the socket goes to the address that was checked (no DNS rebinding
 * between check and connect). dns.lookup's contract: an array when `all` (happy eyeballs), else one.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolve, refuse: Refuse): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 6 || options.family === 'IPv6' ? 6 : 4
    checkedAddresses(hostname, options.family ? family : undefined, policy, resolve, refuse).then(
      (addresses) => {
        const first = addresses[0]!
        if (options.all) callback(null, addresses)
        else callback(null, first.address, first.family)
      },
      (error: Error) => callback(error, ''),
    )
  }
}

export async function systemResolve(hostname: string): ReturnType<Resolve> {
  const answers = await dnsLookup(hostname, { all: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

async function checkedAddresses(
  hostname: string,
  family: 4 | 6 | undefined,
  policy: AddressPolicy,
  resolve: Resolve,
  refuse: Refuse,
) {
  let answers: Awaited<ReturnType<Resolve>>
  try {
    answers = await resolve(hostname)
  } catch (error) {
    throw refuse('dns_failed', `${hostname} could not be resolved`, error)
  }
  // Every answer, not only the one used: a public answer next to a private one is a rebinding attempt.
  for (const { address } of answers) {
    const refusal = addressRefusal(address, policy)
    if (refusal) throw refuse('address_not_allowed', `${hostname} resolves to ${address}, ${refusal}`)
  }
  const usable = answers.filter((answer) => family === undefined || answer.family === family)
  if (usable.length === 0) throw refuse('dns_failed', `${hostname} has no usable address`)
  return usable
}

function sameAddress(allowed: string, canonical: string): boolean {
  try {
    return ipaddr.process(allowed).toString() === canonical
  } catch {
    return false
  }
}
