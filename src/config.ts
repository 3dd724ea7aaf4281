// The only reader of process.env (docs/operations.md#configuration). Every variable is validated
// here, once, at start; a bad value stops the process with one line naming the variable.
import { resolve } from 'node:path'
import ipaddr from 'ipaddr.js'
import { type Static, Type } from 'typebox'
import { DEFAULT_PRICE_TIERS, parseCurrency, parsePriceTiers } from './lib/price-tiers.ts'
import { MAIL_LANGUAGES, type MailLanguage } from './mail/messages/texts.ts'
import { parseS3StorageUrl } from './storage/storage-url.ts'

export const Config = Type.Object({
  port: Type.Integer(),
  host: Type.String(),
  publicUrl: Type.String(),
  /** PUBLIC_URL was given, not defaulted from PORT (the split commands require it). */
  publicUrlSet: Type.Boolean(),
  signingUrl: Type.String(),
  dataDir: Type.String(),
  database: Type.Union([
    Type.Object({ engine: Type.Literal('sqlite'), path: Type.String() }),
    Type.Object({ engine: Type.Literal('postgres'), url: Type.String() }),
  ]),
  storageUrl: Type.String(),
  smtpUrl: Type.Optional(Type.String()),
  mailFrom: Type.String(),
  /** The language of every mail (MAIL_LANGUAGE), English by default. */
  mailLanguage: Type.Unsafe<MailLanguage>(Type.String({ enum: [...MAIL_LANGUAGES] })),
  redisUrl: Type.Optional(Type.String()),
  paraphSecret: Type.Optional(Type.String()),
  signingCertP12: Type.Optional(Type.String()),
  signingCertPassword: Type.Optional(Type.String()),
  chromiumPath: Type.String(),
  /** CHROMIUM_SANDBOX: Chromium's own sandbox, `auto` (where it can run), `on` (required) or `off`. */
  chromiumSandbox: Type.Union([Type.Literal('auto'), Type.Literal('on'), Type.Literal('off')]),
  allowPrivateNetworkUrls: Type.Boolean(),
  webhookRetrySchedule: Type.Array(Type.Integer()),
  rateLimit: Type.Object({ test: Type.Integer(), live: Type.Integer() }),
  /** Requests per minute per client address on the signer's routes and /files/…. */
  rateLimitSigner: Type.Integer(),
  /** RATE_LIMIT_MCP (docs/mcp.md#rate-limits): requests per minute per key to the MCP endpoint. */
  rateLimitMcp: Type.Integer(),
  /** Fastify's `trustProxy`: which X-Forwarded-For hops give the client address. */
  trustProxy: Type.Union([Type.Boolean(), Type.Integer(), Type.Array(Type.String())]),
  logLevel: Type.String(),
  /** REQUEST_LOGS: keep each /v1 request 7 days for GET /v1/request_logs; default true. */
  requestLogs: Type.Boolean(),
  /** An RFC 3161 time-stamping authority; every seal is then PAdES B-T. */
  tsaUrl: Type.Optional(Type.String()),
  /** docs/usage.md#pricing: price per signature on live keys by monthly volume (PRICE_TIERS). */
  priceTiers: Type.Array(
    Type.Object({ upTo: Type.Union([Type.Integer(), Type.Null()]), unitAmount: Type.Integer() }),
  ),
  /** PRICE_CURRENCY: ISO 4217 code of the amounts. */
  priceCurrency: Type.String(),
  /** METRICS_LISTEN (docs/operations.md#metrics): the second listener serving GET /metrics. */
  metricsListen: Type.Optional(Type.Object({ host: Type.String(), port: Type.Integer() })),
  /** REMINDERS (docs/api.md#reminders): the default reminder policy in hours; null: `off`. */
  reminders: Type.Union([
    Type.Object({ firstAfterHours: Type.Integer(), everyHours: Type.Integer(), maxCount: Type.Integer() }),
    Type.Null(),
  ]),
  /** REMINDER_HOUR_SECONDS: the length of one policy hour, in seconds (3600; shorter for tests). */
  reminderHourSeconds: Type.Integer(),
  /** WORKER_CONCURRENCY (docs/operations.md#worker-concurrency): jobs one worker runs at once. */
  workerConcurrency: Type.Integer(),
  /** JOB_LEASE_SECONDS (docs/security.md#crash-safe-jobs): how long a claimed job is a worker's before another may claim it. */
  jobLeaseSeconds: Type.Integer(),
})
export type Config = Static<typeof Config>

export class ConfigError extends Error {
  readonly variable: string
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`)
    this.variable = variable
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function read(env: Env, name: string): string | undefined {
  const value = env[name]
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`)
  }
  return Number(raw)
}

function boolean(env: Env, name: string): boolean {
  const raw = read(env, name)?.toLowerCase()
  if (raw === undefined || raw === 'false' || raw === '0') return false
  if (raw === 'true' || raw === '1') return true
  throw new ConfigError(name, `must be true or false (got "${raw}")`)
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${raw}")`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http: or https: (got "${raw}")`)
  }
  if (url.search || url.hash) throw new ConfigError(name, `must not have a query or fragment (got "${raw}")`)
  return raw.replace(/\/+$/, '')
}

function parseUrlVar(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name)
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(name, `must be a URL starting with ${protocols.join(' or ')} (got "${raw}")`)
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.join(' or ')} (got "${url.protocol}")`)
  }
  return raw
}

function database(env: Env, dataDir: string): Config['database'] {
  const raw = read(env, 'DATABASE_URL') ?? `sqlite:${dataDir}/paraph.db`
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length)
    if (path === '')
      throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/paraph.db')
    return { engine: 'sqlite', path: path === ':memory:' ? path : resolve(path) }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw)
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL')
    }
    return { engine: 'postgres', url: raw }
  }
  throw new ConfigError(
    'DATABASE_URL',
    `must start with sqlite: or postgres:// (got "${raw.split(':')[0]}:")`,
  )
}

function storageUrl(env: Env, dataDir: string): string {
  const raw = read(env, 'STORAGE_URL') ?? `file:${dataDir}/blobs`
  if (raw.startsWith('file:')) {
    if (raw.length === 'file:'.length)
      throw new ConfigError('STORAGE_URL', 'file: needs a directory, e.g. file:./data/blobs')
    return raw
  }
  if (raw.startsWith('s3://')) {
    try {
      parseS3StorageUrl(raw)
    } catch (error) {
      throw new ConfigError('STORAGE_URL', (error as Error).message.replace(/^STORAGE_URL:? */, ''))
    }
    return raw
  }
  throw new ConfigError('STORAGE_URL', `must start with file: or s3:// (got "${raw}")`)
}

/** docs/operations.md#configuration: the default attempt times, in seconds after the event. */
export const DEFAULT_RETRY_SCHEDULE = '0,30,300,1800,7200,21600,86400,259200'

function retrySchedule(env: Env): number[] {
  const raw = read(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE
  const parts = raw.split(',').map((p) => p.trim())
  const valid = parts.every((p) => /^\d+$/.test(p))
  const values = parts.map(Number)
  const increasing = values.every((v, i) => i === 0 || v >= values[i - 1]!)
  if (!valid || !increasing || values.length === 0 || values.length > 20) {
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      `must be 1 to 20 non-decreasing whole seconds separated by commas (got "${raw}")`,
    )
  }
  return values
}

/** `Name <address>` or a bare address: the sender of every mail, and the domain of its Message-ID. */
function mailFrom(env: Env): string {
  const raw = read(env, 'MAIL_FROM') ?? 'Paraph <no-reply@localhost>'
  const address = /<([^<>]*)>$/.exec(raw)?.[1] ?? raw
  if (!/^[^\s<>@"]+@[^\s<>@"]+$/.test(address) || (raw !== address && !/^[^<>]*<[^<>]*>$/.test(raw))) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an e-mail address, alone or as "Name <address>", e.g. "Acme <sign@acme.example>" (got "${raw}")`,
    )
  }
  return raw
}

function mailLanguage(env: Env): MailLanguage {
  const raw = read(env, 'MAIL_LANGUAGE') ?? 'en'
  const language = MAIL_LANGUAGES.find((l) => l === raw.toLowerCase())
  if (!language)
    throw new ConfigError('MAIL_LANGUAGE', `must be one of ${MAIL_LANGUAGES.join(', ')} (got "${raw}")`)
  return language
}

const SANDBOX_MODES = ['auto', 'on', 'off'] as const

function chromiumSandbox(env: Env): Config['chromiumSandbox'] {
  const raw = read(env, 'CHROMIUM_SANDBOX') ?? 'auto'
  const mode = SANDBOX_MODES.find((m) => m === raw.toLowerCase())
  if (!mode)
    throw new ConfigError('CHROMIUM_SANDBOX', `must be one of ${SANDBOX_MODES.join(', ')} (got "${raw}")`)
  return mode
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` also takes. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

function isAddressOrCidr(item: string): boolean {
  if (PROXY_RANGE_NAMES.includes(item)) return true
  if (!item.includes('/')) return ipaddr.isValid(item)
  try {
    ipaddr.parseCIDR(item)
    return true
  } catch {
    return false
  }
}

/**
 * TRUST_PROXY (docs/operations.md#configuration): `false` (the default: X-Forwarded-For is
 * ignored), `true` (every hop: only behind a proxy that overwrites the header), a hop count, or the
 * proxies' addresses.
 */
function trustProxy(env: Env): Config['trustProxy'] {
  const raw = read(env, 'TRUST_PROXY')
  if (raw === undefined || raw.toLowerCase() === 'false') return false
  if (raw.toLowerCase() === 'true') return true
  const usage = `must be false, true, a hop count from 1 to 100, or a comma list of addresses and CIDRs such as "10.0.0.0/8,127.0.0.1" (got "${raw}")`
  if (/^\d+$/.test(raw)) {
    if (Number(raw) < 1 || Number(raw) > 100) throw new ConfigError('TRUST_PROXY', usage)
    return Number(raw)
  }
  const items = raw.split(',').map((item) => item.trim())
  const bad = items.find((item) => !isAddressOrCidr(item))
  if (bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', `${usage}: "${bad}" is not an IP address or CIDR`)
  }
  return items
}

/** PRICE_TIERS and PRICE_CURRENCY (docs/usage.md#pricing), each refused with a line naming it. */
function pricing(env: Env): Pick<Config, 'priceTiers' | 'priceCurrency'> {
  const parse = <T>(name: string, fallback: string, parser: (raw: string) => T): T => {
    try {
      return parser(read(env, name) ?? fallback)
    } catch (error) {
      throw new ConfigError(name, (error as Error).message)
    }
  }
  return {
    priceTiers: parse('PRICE_TIERS', DEFAULT_PRICE_TIERS, parsePriceTiers),
    priceCurrency: parse('PRICE_CURRENCY', 'EUR', parseCurrency),
  }
}

/**
 * METRICS_LISTEN: `HOST:PORT`, an IPv6 host in brackets (`[::1]:9464`); unset: no metrics listener.
 * A host is required, so a metrics port is never opened on every interface by accident.
 */
function metricsListen(env: Env): Config['metricsListen'] {
  const raw = read(env, 'METRICS_LISTEN')
  if (raw === undefined) return undefined
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw)
  const host = match?.[1] ?? match?.[2]
  const port = Number(match?.[3])
  const hostOk = host !== undefined && (match?.[1] ? ipaddr.IPv6.isValid(host) : /^[\w.-]+$/.test(host))
  if (!match || !hostOk || port < 0 || port > 65535) {
    throw new ConfigError(
      'METRICS_LISTEN',
      `must be HOST:PORT, e.g. 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464 (got "${raw}")`,
    )
  }
  return { host: host as string, port }
}

/** The bounds of each number of a reminder policy (docs/api.md#reminders), shared with the API's schema. */
export const REMINDER_BOUNDS = {
  first_after_hours: { minimum: 1, maximum: 720 },
  every_hours: { minimum: 1, maximum: 720 },
  max_count: { minimum: 1, maximum: 10 },
} as const

/** REMINDERS: `off`, or `FIRST,EVERY,MAX` in hours (e.g. `72,48,3`), each within REMINDER_BOUNDS. */
function reminders(env: Env): Config['reminders'] {
  const raw = read(env, 'REMINDERS') ?? 'off'
  if (raw.toLowerCase() === 'off') return null
  const parts = raw.split(',').map((p) => p.trim())
  const bounds = Object.values(REMINDER_BOUNDS)
  const fits =
    parts.length === 3 &&
    parts.every(
      (p, i) => /^\d+$/.test(p) && Number(p) >= bounds[i]!.minimum && Number(p) <= bounds[i]!.maximum,
    )
  if (!fits) {
    throw new ConfigError(
      'REMINDERS',
      `must be off, or FIRST,EVERY,MAX in hours (first and every 1 to 720, max 1 to 10), e.g. 72,48,3 (got "${raw}")`,
    )
  }
  const [firstAfterHours, everyHours, maxCount] = parts.map(Number) as [number, number, number]
  return { firstAfterHours, everyHours, maxCount }
}

/** Reads and validates the whole configuration; throws ConfigError naming the first bad variable. */
export function readConfig(env: Env = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8080, 0, 65535)
  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data')
  const publicUrl = httpUrl(env, 'PUBLIC_URL', `http://127.0.0.1:${port}`)
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`)
  const secret = read(env, 'PARAPH_SECRET')
  if (secret !== undefined && secret.length < 32) {
    throw new ConfigError('PARAPH_SECRET', 'must be at least 32 characters (use `openssl rand -hex 32`)')
  }
  const certP12 = read(env, 'SIGNING_CERT_P12')
  const certPassword = env.SIGNING_CERT_PASSWORD
  if (certPassword !== undefined && certP12 === undefined) {
    throw new ConfigError('SIGNING_CERT_PASSWORD', 'is set but SIGNING_CERT_P12 is not')
  }
  const config: Config = {
    port,
    host: read(env, 'HOST') ?? '127.0.0.1',
    publicUrl,
    publicUrlSet: read(env, 'PUBLIC_URL') !== undefined,
    signingUrl: httpUrl(env, 'SIGNING_URL', publicUrl),
    dataDir,
    database: database(env, dataDir),
    storageUrl: storageUrl(env, dataDir),
    smtpUrl: parseUrlVar(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: mailFrom(env),
    mailLanguage: mailLanguage(env),
    redisUrl: parseUrlVar(env, 'REDIS_URL', ['redis:', 'rediss:']),
    paraphSecret: secret,
    signingCertP12: certP12,
    signingCertPassword: certPassword,
    chromiumPath: read(env, 'CHROMIUM_PATH') ?? '/usr/bin/chromium',
    chromiumSandbox: chromiumSandbox(env),
    allowPrivateNetworkUrls: boolean(env, 'ALLOW_PRIVATE_NETWORK_URLS'),
    webhookRetrySchedule: retrySchedule(env),
    rateLimit: {
      test: integer(env, 'RATE_LIMIT_TEST', 100, 1, 1_000_000_000),
      live: integer(env, 'RATE_LIMIT_LIVE', 1000, 1, 1_000_000_000),
    },
    rateLimitSigner: integer(env, 'RATE_LIMIT_SIGNER', 300, 1, 1_000_000_000),
    rateLimitMcp: integer(env, 'RATE_LIMIT_MCP', 120, 1, 1_000_000_000),
    trustProxy: trustProxy(env),
    logLevel,
    requestLogs: read(env, 'REQUEST_LOGS') === undefined || boolean(env, 'REQUEST_LOGS'),
    tsaUrl: parseUrlVar(env, 'TSA_URL', ['http:', 'https:']),
    ...pricing(env),
    metricsListen: metricsListen(env),
    reminders: reminders(env),
    reminderHourSeconds: integer(env, 'REMINDER_HOUR_SECONDS', 3600, 1, 86_400),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 4, 1, 32),
    jobLeaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 60, 5, 3600),
  }
  return Object.freeze(config)
}

/** What `paraph mcp` needs (docs/mcp.md#stdio): it is a client of a running Paraph, with no database. */
export interface McpClientConfig {
  /** PARAPH_URL, else PUBLIC_URL, else http://127.0.0.1:$PORT (PORT 8080): the Paraph to call. */
  url: string
  /** PARAPH_API_KEY: the key every call carries. */
  apiKey: string
}

export function readMcpClientConfig(env: Env = process.env): Readonly<McpClientConfig> {
  const port = integer(env, 'PORT', 8080, 0, 65535)
  const fallback = httpUrl(env, 'PUBLIC_URL', `http://127.0.0.1:${port}`)
  const url = httpUrl(env, 'PARAPH_URL', fallback)
  const apiKey = read(env, 'PARAPH_API_KEY')
  if (apiKey === undefined)
    throw new ConfigError('PARAPH_API_KEY', 'is required: an API key (sk_test_… or sk_live_…)')
  if (!/^sk_(test|live)_[0-9A-Za-z]+$/.test(apiKey)) {
    throw new ConfigError('PARAPH_API_KEY', 'must be an API key: sk_test_… or sk_live_…')
  }
  return Object.freeze({ url, apiKey })
}
