// RATE_LIMIT_SIGNER in docs/operations.md#configuration: the routes a signer's browser calls (the
// page, its assets and page images, the form and every act, under `/s/…` and `/embed/…`) and
// `/files/…` carry no API key, so they are counted per client address instead, on the API's
// counters (rate-limit.ts: in this process, or in Redis when REDIS_URL is set). The address is
// Fastify's `request.ip`, which reads X-Forwarded-For only as far as TRUST_PROXY allows. Runs first
// (onRequest), before a body is read or a credential looked up, so a refused request costs one
// counter increment.
import type { FastifyReply, FastifyRequest } from 'fastify'
import ipaddr from 'ipaddr.js'
import type { Config } from '../config.ts'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { type RateLimitDecision, retryAfterSeconds } from './rate-limit.ts'

/**
 * The counter of a client address: IPv4 as it is (an IPv4-mapped IPv6 address counts as its IPv4),
 * IPv6 by its /64, the block one subscriber usually holds, so a host cannot escape its limit by
 * changing the low bits of its address.
 */
export function addressCounterKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') return address.toString()
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4)
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes proxy-addr's test "the first n hops
 * from this server" (Express's meaning): Fastify 5.12 takes a bare number to trust nothing.
 */
export function trustProxyOption(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting
  return (_address, hop) => hop < setting
}

function admit(deps: Deps, decision: RateLimitDecision): void {
  if (decision.allowed) return
  const wait = retryAfterSeconds(decision, deps.clock.now())
  throw new ApiError(
    'rate_limit_exceeded',
    `Rate limit of ${decision.limit} requests per minute reached for this address; retry in ${wait} s.`,
    { 'retry-after': String(wait) },
  )
}

/** A callback-style hook (no promise with in-process counters), like auth.ts's. */
export function limitByAddress(deps: Deps) {
  return function limitRequest(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
    try {
      const decision = deps.rateLimiter.consume(addressCounterKey(request.ip), 'signer')
      if (decision instanceof Promise) {
        decision.then((shared) => admit(deps, shared)).then(() => done(), done)
        return
      }
      admit(deps, decision)
      done()
    } catch (error) {
      done(error as Error)
    }
  }
}
