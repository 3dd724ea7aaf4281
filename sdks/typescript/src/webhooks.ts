// Verifying a webhook delivery (docs/webhooks.md#the-signature, docs/sdks.md#webhooks):
// `Paraph-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`, each v1 the HMAC-SHA256 of `t + "." + the raw
// body` keyed with a `whsec_…` secret. The raw bytes are checked before anything is parsed, the
// timestamp within a tolerance (300 s by default) of this clock, each v1 against each secret given
// (several during a rotation) with a constant-time comparison; only then is the JSON read.
// Web Crypto only (globalThis.crypto.subtle): Node.js ≥ 20, Deno, Bun, edge runtimes, browsers.

import type { webhooks as WebhookSection } from './generated/openapi.gen.ts'

type BodyOf<W> = W extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never

/**
 * A delivery's body (docs/webhooks.md#the-body), typed from the OpenAPI `webhooks` section: a union
 * on `type`, so `if (event.type === 'submission.completed')` narrows `event.data`.
 */
export type WebhookEvent = { [K in keyof WebhookSection]: BodyOf<WebhookSection[K]> }[keyof WebhookSection]
/** Every event type a webhook endpoint can receive. */
export type WebhookEventType = WebhookEvent['type']

export interface VerifyOptions {
  /** How far `t` may be from now, in seconds (default 300). */
  toleranceSeconds?: number
  /** "Now", for a receiver that checks against another clock: a Date or epoch milliseconds. */
  now?: Date | number
}

export type VerificationFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature'
  | 'invalid_body'

/** The delivery is not Paraph's (or not now): answer it 400 and do nothing with it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError'
  readonly reason: VerificationFailure
  constructor(reason: VerificationFailure, message: string) {
    super(message)
    this.reason = reason
  }
}

const encoder = new TextEncoder()

/**
 * Verifies a delivery and returns its event. `rawBody` is the request body exactly as received
 * (bytes, or the text exactly as sent: never a re-serialized object); `header` the
 * `Paraph-Signature` value; `secrets` the endpoint's secret, or the old and the new during a
 * rotation. Throws WebhookVerificationError saying why when it does not verify.
 */
export async function verify(
  rawBody: string | Uint8Array | ArrayBuffer,
  header: string | readonly string[] | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const { t, signatures } = parseHeader(Array.isArray(header) ? header.join(',') : (header as string | null))
  const nowMs = options.now === undefined ? Date.now() : Number(options.now)
  const tolerance = options.toleranceSeconds ?? 300
  if (Math.abs(nowMs / 1000 - t) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `Paraph-Signature t=${t} is more than ${tolerance} s from now`,
    )
  }
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody)
  const signed = concat(encoder.encode(`${t}.`), body)
  let matched = false
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = await hmacSha256(secret, signed)
    // Every pair is compared, so the time taken says nothing of which one matched.
    for (const given of signatures) matched = constantTimeEqual(expected, given) || matched
  }
  if (!matched)
    throw new WebhookVerificationError('no_matching_signature', 'No v1 signature matches the secrets given')
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as WebhookEvent
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not UTF-8 JSON')
  }
}

/** `webhooks.verify(rawBody, header, secrets, { toleranceSeconds })`. */
export const webhooks = { verify }

function parseHeader(header: string | null | undefined): { t: number; signatures: Uint8Array[] } {
  if (!header) throw new WebhookVerificationError('missing_header', 'No Paraph-Signature header')
  let t: number | undefined
  const signatures: Uint8Array[] = []
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2)
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value)
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(fromHex(value))
  }
  if (t === undefined || signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_header',
      'Paraph-Signature needs t=<unix seconds> and v1=<hex>',
    )
  }
  return { t, signatures }
}

async function hmacSha256(secret: string, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, data))
}

/** Both 32 bytes: every byte is compared whatever the first difference. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number)
  return difference === 0
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
