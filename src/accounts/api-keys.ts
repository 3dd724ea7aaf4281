// API keys (docs/api.md#keys): `sk_test_` / `sk_live_` + 32 base62 characters, stored only as
// SHA-256 hashes. A key carries 190 bits of entropy, so a fast hash is enough: there is nothing to
// brute-force.

import type { Environment } from '../db/tables.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { randomBase62 } from '../lib/ids.ts'

/** A key's optional name (docs/api.md#keys): what it is for, shown in key lists and request logs. */
export const KEY_NAME_MAX_LENGTH = 100

/** A name as stored: trimmed, null when blank. */
export function keyName(raw: string | null | undefined): string | null {
  const name = raw?.trim() ?? ''
  return name === '' ? null : name
}

const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/

export function generateApiKey(environment: Environment): string {
  return `sk_${environment}_${randomBase62(32)}`
}

/** The environment a well-formed key claims, or null for anything that is not a key. */
export function parseApiKey(raw: string): Environment | null {
  const match = KEY_PATTERN.exec(raw)
  return match ? (match[1] as Environment) : null
}

export function hashApiKey(key: string): string {
  return sha256Hex(key)
}

/** Enough of the key for a person to tell keys apart in a list, never enough to use. */
export function keyHint(key: string): string {
  return `${key.slice(0, 12)}…`
}
