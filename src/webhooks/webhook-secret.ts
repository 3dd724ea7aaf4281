// Endpoint secrets (docs/api.md#endpoints): `whsec_` + 32 base62 characters, shown in the creation
// answer only. The row keeps it sealed (AES-256-GCM under a key derived from PARAPH_SECRET): the
// service can sign with it, while a copy of the database alone cannot, and no answer ever carries
// it again.
import { seal, unseal } from '../lib/crypto.ts'
import { randomBase62 } from '../lib/ids.ts'

export function newWebhookSecret(): string {
  return `whsec_${randomBase62(32)}`
}

export function sealSecret(key: Buffer, secret: string): string {
  return seal(key, secret)
}

/** Secrets already unsealed, per key: one AES-GCM opening per endpoint secret, not per delivery. */
const opened = new WeakMap<Buffer, Map<string, string>>()
const OPENED_MAX = 1000

export function openSecret(key: Buffer, sealed: string): string {
  const cache = opened.get(key) ?? new Map<string, string>()
  opened.set(key, cache)
  const known = cache.get(sealed)
  if (known !== undefined) return known
  const secret = unseal(key, sealed)
  // Only a changed PARAPH_SECRET gets here: every delivery of the endpoint would be unverifiable.
  if (secret === null) throw new Error('webhook secret cannot be unsealed: was PARAPH_SECRET changed?')
  if (cache.size >= OPENED_MAX) cache.clear()
  cache.set(sealed, secret)
  return secret
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its overlap. */
export function signingSecrets(
  key: Buffer,
  row: {
    secret_sealed: string
    previous_secret_sealed: string | null
    previous_secret_expires_at: string | null
  },
  now: Date,
): string[] {
  const secrets = [openSecret(key, row.secret_sealed)]
  const previousValid =
    row.previous_secret_sealed !== null &&
    row.previous_secret_expires_at !== null &&
    Date.parse(row.previous_secret_expires_at) > now.getTime()
  if (previousValid) secrets.push(openSecret(key, row.previous_secret_sealed as string))
  return secrets
}
