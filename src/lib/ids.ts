import { randomBytes } from 'node:crypto'

// docs/api.md#identifiers: identifiers are prefix + "_" + 24 base62 characters.
export const ID_PREFIXES = [
  'acct',
  'key',
  'tpl',
  'sub',
  'sbm',
  'evt',
  'whk',
  'dlv',
  'job',
  'req',
  'mem',
  'cses',
  'csil',
  'tdr',
  'grm',
  'bulk',
  'hold',
  'era',
] as const
export type IdPrefix = (typeof ID_PREFIXES)[number]

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

// CSPRNG bytes are drawn 8 KiB at a time (as crypto.randomUUID does): one randomBytes call per
// request id cost a tenth of a request's CPU. Every byte is still used once and only once.
const POOL_SIZE = 8192
let pool = Buffer.alloc(0)
let offset = 0

function nextRandomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_SIZE)
    offset = 0
  }
  return pool[offset++]!
}

/** `length` base62 characters from the CSPRNG, without modulo bias (bytes >= 248 are rejected). */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    const byte = nextRandomByte()
    if (byte < 248) out += BASE62[byte % 62]
  }
  return out
}

/** `length` decimal digits from the CSPRNG, without modulo bias (bytes >= 250 are rejected). */
export function randomDigits(length: number): string {
  let out = ''
  while (out.length < length) {
    const byte = nextRandomByte()
    if (byte < 250) out += String(byte % 10)
  }
  return out
}

export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_[0-9A-Za-z]{24}$`
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 25 && new RegExp(idPattern(prefix)).test(value)
}

/** Injected through deps so tests can predict ids; production uses the CSPRNG. */
export interface IdGenerator {
  next(prefix: IdPrefix): string
  /** Ids that sort in creation order within a process (time, then a counter, then randomness). */
  nextSortable(prefix: IdPrefix): string
}

function fixedBase62(value: number, width: number): string {
  let out = ''
  let n = value
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

let lastMs = 0
let sequence = 0

export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBase62(24)}`,
  // 8 characters of milliseconds (good until the year 8000), 4 of a per-millisecond counter, 12
  // random (71 bits): events of one transaction keep their order when their timestamps are equal.
  nextSortable: (prefix) => {
    const now = Date.now()
    sequence = now === lastMs ? sequence + 1 : 0
    lastMs = now
    return `${prefix}_${fixedBase62(now, 8)}${fixedBase62(sequence % 62 ** 4, 4)}${randomBase62(12)}`
  },
}

/**
 * Request ids (`req_` + 24 base62): 10 random characters fixed per process, then a counter. Unique
 * across processes without drawing random bytes on every request; they label logs, they guard nothing.
 */
export function requestIdSource(): () => string {
  const processPart = randomBase62(10)
  let counter = 0
  return () => {
    let n = counter++
    let digits = ''
    for (let i = 0; i < 14; i++) {
      digits = BASE62[n % 62] + digits
      n = Math.floor(n / 62)
    }
    return `req_${processPart}${digits}`
  }
}
