// The `Paraph-Signature` header (docs/webhooks.md#the-signature,
// docs/security.md#webhook-signatures): `t=<unix>` then one `v1=<64 lowercase hex>` per secret in
// force (two during a rotation), comma-separated with no spaces — stripe-node's parser splits on
// `,` without trimming. Each v1 is HMAC-SHA256 keyed with the full `whsec_…` string over `t + "." +
// the exact bytes sent`. Pure.
import { hmacSha256Hex } from '../lib/crypto.ts'

export const SIGNATURE_HEADER = 'Paraph-Signature'

export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): string {
  const signed = `${unixSeconds}.${body}`
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, signed)}`)].join(',')
}
