// The composition root: what this process talks to outside itself. Every outside system is either
// created here, once, or — where it must start lazily or inside a child process — named below with
// the file that starts it. No other server code opens a connection or starts a program.
//
// Created here (createDeps):
// - Database — DATABASE_URL: a SQLite file or a PostgreSQL pool (db/database.ts) → `db`.
// - Redis — REDIS_URL, optional: shared rate-limit counters (http/rate-limit.ts) → connectRedis.
// - Blob store — STORAGE_URL: a directory or an S3 bucket (storage/storage-url.ts) → `blobs`.
// - SMTP server — SMTP_URL, optional: one pooled transport (mail/smtp-mailer.ts); unset, mail
//   stays in its job row (mail/outbox-mailer.ts) → `mailer`.
// - Chromium — CHROMIUM_PATH, CHROMIUM_SANDBOX: HTML → PDF (render/chromium-renderer.ts), one
//   browser launched on first render or by `serve` at start → `renderer`.
// - Webhook receivers — the URLs accounts register: POSTs through one keep-alive agent whose
//   every connection passes the SSRF guard (lib/safe-fetch.ts guardedAgent, `resolve`), used by
//   webhooks/ → `webhookAgent`.
//
// Started where they are used (named here so this list is complete):
// - PDF URLs given at intake — documents/intake.ts → lib/safe-fetch.ts safeDownload: one guarded
//   download per document (ALLOW_PRIVATE_NETWORK_URLS, LIMITS.pdfUrl*; `trustedCa` in tests).
// - Time-stamping authority — TSA_URL, optional: an HTTP POST per seal (pdf/seal/timestamp.ts,
//   LIMITS.tsaTimeoutMs), made inside the finalizer child; the URL travels in each finalize
//   request (submissions/finalize-submission.ts reads `config.tsaUrl`).
// - pdftoppm (poppler) — a process per page image, under a memory limit and a timeout
//   (pdf/read/page-image.ts), for the signing page and the console's template pages.
// - qpdf and pdfinfo (poppler) — run by one shell inside each finalizer child, to read every
//   final PDF before it is kept (pdf/final/final-pdf-readers.ts).
// - Pools of warm node children (child-pool/child-pool.ts), each made on its first request, each
//   child under an OS memory limit (prlimit, else `ulimit -d`: child-pool/memory-limit.ts):
//   the PDF inspector (pdf/read/inspect-pdf.ts), the PDF finalizer and the current-PDF maker
//   (pdf/finalizer/finalize-pdf.ts), the DOCX converter (render/docx-to-html.ts) and the HTML tag
//   finder (render/html-tagger.ts); closed at shutdown by cli/serve.ts (the finalizer's also by
//   cli/worker.ts).
// - The metrics listener — METRICS_LISTEN: served by the CLI on its own port (`metrics` below).

import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { type DestinationStream, type Logger, pino } from 'pino'
import type { Agent } from 'undici'
import { KeyActivity } from './accounts/key-activity.ts'
import { KeyCache } from './accounts/key-cache.ts'
import type { Config } from './config.ts'
import { type Database, openDatabase } from './db/database.ts'
import type { Engine } from './db/dialect.ts'
import type { Db } from './db/tables.ts'
import { AccessLog } from './http/access-log.ts'
import { RateLimiter } from './http/rate-limit.ts'
import { JobBell } from './jobs/job-bell.ts'
import { countJobsByKindAndState, UNFINISHED_JOB_STATES } from './jobs/job-store.ts'
import { type Resolve, systemResolve } from './lib/address-policy.ts'
import { type Clock, systemClock } from './lib/clock.ts'
import { deriveKey } from './lib/crypto.ts'
import { type IdGenerator, randomIds } from './lib/ids.ts'
import { batchedStdout } from './lib/log-stream.ts'
import { Outage } from './lib/outage.ts'
import { guardedAgent } from './lib/safe-fetch.ts'
import { loadOrCreateSecret } from './lib/secret-file.ts'
import { LIMITS } from './limits.ts'
import type { Mailer } from './mail/mailer.ts'
import { OutboxMailer } from './mail/outbox-mailer.ts'
import { registerJobGauges } from './metrics/job-gauges.ts'
import { createMetrics, type Metrics, NO_METRICS } from './metrics/metrics.ts'
import { ChromiumRenderer, type RendererOptions } from './render/chromium-renderer.ts'
import { RequestLogWriter } from './request-logs/request-log-writer.ts'
import type { BlobStore } from './storage/blob-store.ts'
import { createBlobStore } from './storage/storage-url.ts'

export interface Deps {
  config: Readonly<Config>
  db: Db
  engine: Engine
  blobs: BlobStore
  /** SMTP_URL: one pooled SMTP transport for the process; unset: the outbox (mail kept in its job row). */
  mailer: Mailer
  clock: Clock
  ids: IdGenerator
  logger: FastifyBaseLogger
  /** The one line per answered request, to the logger's destination. */
  accessLog: AccessLog
  /** Each /v1 request with a valid key, buffered and written in batches. */
  requestLogs: RequestLogWriter
  rateLimiter: RateLimiter
  keyCache: KeyCache
  /** Each key's last use and routes per day (docs/deprecations.md#what-is-recorded), written off the request. */
  keyActivity: KeyActivity
  /** Wakes this process's idle worker after a write request. */
  jobBell: JobBell
  /** Wakes this process's webhook dispatcher when events.publish has made deliveries. */
  webhookBell: JobBell
  /**
   * The database as the background loops (worker, dispatcher, housekeeping) meet it: one line when
   * it goes away, one when it is back, and their back-off meanwhile.
   */
  dbOutage: Outage
  /** Extra CA certificate trusted for outbound HTTPS (tests with a local test certificate only). */
  trustedCa?: string
  /** DNS for user-supplied URLs (webhook endpoints): the system's; tests inject names of their own. */
  resolve: Resolve
  /** Overall deadline of one webhook POST (10 s; tests shorten it). */
  webhookTimeoutMs: number
  /** Webhook POSTs' keep-alive connections, each through the SSRF guard's lookup when it connects. */
  webhookAgent: Agent
  /**
   * HTML → PDF with field-marker boxes (from_html, from_docx): Chromium at CHROMIUM_PATH, launched
   * on first use (or by `serve` at start), so a process that renders nothing never starts it.
   */
  renderer: ChromiumRenderer
  /**
   * METRICS_LISTEN: this process's Prometheus registry and what records into it;
   * unset: NO_METRICS, whose calls do nothing. The CLI serves `metrics.registry` on its own listener.
   */
  metrics: Metrics
  /** Purpose-bound keys derived from PARAPH_SECRET. */
  keys: {
    cursor: Buffer
    embed: Buffer
    files: Buffer
    emailCode: Buffer
    /** Derives each e-mail code from its mail job's id (the code is never stored). */
    emailCodeSeed: Buffer
    signerSession: Buffer
    webhookSecret: Buffer
    /** Keys an erasure's address (docs/privacy.md#erasure): the report never holds it in clear. */
    erasure: Buffer
  }
  close(): Promise<void>
}

export interface DepsOverrides {
  clock?: Clock
  ids?: IdGenerator
  /** Where log lines go instead of standard output (tests capture them). */
  logDestination?: DestinationStream
  /** Prefix of the rate-limit counters in Redis (tests keep parallel runs apart). */
  rateLimitPrefix?: string
  trustedCa?: string
  resolve?: Resolve
  webhookTimeoutMs?: number
  /** The renderer's timeout, concurrency, queue, page cap or hooks (tests shorten or count them). */
  renderer?: Partial<Omit<RendererOptions, 'executablePath' | 'logger'>>
}

/** Keys, passwords and secrets never reach the logs, wherever they appear in a logged object. */
// Exact paths, no wildcards: wildcard redaction walks every logged object and cost a few percent
// of each request. Code never logs a secret under any other name (the log tests check the output).
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'key',
  'test_key',
  'live_key',
  'secret',
  'password',
]

/** The service's logger and its access log, both writing to `destination` (standard output). */
export function createLogging(
  level: string,
  destination: DestinationStream = batchedStdout(),
): { logger: FastifyBaseLogger; accessLog: AccessLog } {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  const logger: Logger = pino(options, destination)
  return { logger: logger as FastifyBaseLogger, accessLog: new AccessLog(destination, logger.levelVal) }
}

/**
 * Redis for shared rate-limit counters. Commands fail fast instead of queueing while it is away
 * (the limiter then counts in-process), and the first connection is awaited so the first requests
 * already share counters.
 */
async function connectRedis(url: string, logger: FastifyBaseLogger): Promise<Redis> {
  // Loaded only when REDIS_URL is set, as the SMTP client only with SMTP_URL: a process on the
  // embedded defaults (and each test file's process) does not pay for what it does not use.
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
  let warned = false
  redis.on('error', (error: Error) => {
    if (!warned)
      logger.warn({ err: error }, 'redis unavailable; rate limits are counted in this process meanwhile')
    warned = true
  })
  redis.on('ready', () => {
    warned = false
  })
  await redis.connect().catch(() => undefined)
  return redis
}

/**
 * Connections the database server closed (a restart, a failover, `pg_terminate_backend`,
 * `idle_session_timeout`): the pool has dropped them and opens new ones on the next query. Said at
 * most once a minute, with how many were lost meanwhile.
 */
function connectionLossLog(logger: FastifyBaseLogger, clock: Clock) {
  let lastAt = Number.NEGATIVE_INFINITY
  let unreported = 0
  return {
    onConnectionLost(error: Error) {
      unreported++
      const now = clock.epochMs()
      if (now - lastAt < 60_000) return
      logger.warn(
        { err: error, connections_lost: unreported },
        'database connection closed by the server; the pool opens a new one on the next query',
      )
      lastAt = now
      unreported = 0
    },
  }
}

/** The process's metrics: a registry of its own (several apps in one test process), or none. */
function processMetrics(config: Readonly<Config>, db: Db, clock: Clock, logger: FastifyBaseLogger): Metrics {
  if (!config.metricsListen) return NO_METRICS
  const metrics = createMetrics()
  registerJobGauges({
    registry: metrics.registry,
    read: () => countJobsByKindAndState(db),
    clock,
    logger,
    states: UNFINISHED_JOB_STATES,
  })
  return metrics
}

export async function createDeps(config: Readonly<Config>, overrides: DepsOverrides = {}): Promise<Deps> {
  const { logger, accessLog } = createLogging(config.logLevel, overrides.logDestination)
  const clock = overrides.clock ?? systemClock
  const secret = config.paraphSecret ?? (await loadOrCreateSecret(config.dataDir)).secret
  const database: Database = openDatabase(config.database, connectionLossLog(logger, clock))
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined
  const resolve = overrides.resolve ?? systemResolve
  const webhookTimeoutMs = overrides.webhookTimeoutMs ?? LIMITS.webhookTotalMs
  const webhookAgent = guardedAgent({
    allowPrivateNetwork: config.allowPrivateNetworkUrls,
    connectTimeoutMs: webhookTimeoutMs,
    resolve,
    ...(overrides.trustedCa ? { ca: overrides.trustedCa } : {}),
  })
  const mailer: Mailer = config.smtpUrl
    ? new (await import('./mail/smtp-mailer.ts')).SmtpMailer(config.smtpUrl, config.mailFrom, logger)
    : new OutboxMailer(logger)
  const requestLogs = new RequestLogWriter({
    db: database.db,
    logger,
    enabled: config.requestLogs,
  })
  const renderer = new ChromiumRenderer({
    executablePath: config.chromiumPath,
    sandbox: config.chromiumSandbox,
    logger,
    ...overrides.renderer,
  })
  const keyActivity = new KeyActivity(database.db, clock, logger)
  return {
    config,
    db: database.db,
    engine: database.engine,
    blobs: createBlobStore(config.storageUrl, clock),
    mailer,
    clock,
    ids: overrides.ids ?? randomIds,
    logger,
    accessLog,
    requestLogs,
    rateLimiter: new RateLimiter({
      limits: { ...config.rateLimit, signer: config.rateLimitSigner, mcp: config.rateLimitMcp },
      clock,
      redis,
      keyPrefix: overrides.rateLimitPrefix,
    }),
    keyCache: new KeyCache(database.db, clock),
    keyActivity,
    jobBell: new JobBell(),
    webhookBell: new JobBell(),
    dbOutage: new Outage({ logger, clock, what: 'database' }),
    trustedCa: overrides.trustedCa,
    resolve,
    webhookTimeoutMs,
    webhookAgent,
    renderer,
    metrics: processMetrics(config, database.db, clock, logger),
    keys: {
      cursor: deriveKey(secret, 'pagination-cursor-v1'),
      embed: deriveKey(secret, 'embed-jwt-v1'),
      files: deriveKey(secret, 'file-url-v1'),
      emailCode: deriveKey(secret, 'email-2fa-code-v1'),
      emailCodeSeed: deriveKey(secret, 'email-2fa-code-seed-v1'),
      signerSession: deriveKey(secret, 'signer-session-v1'),
      webhookSecret: deriveKey(secret, 'webhook-secret-v1'),
      erasure: deriveKey(secret, 'erasure-address-v1'),
    },
    close: async () => {
      await keyActivity.flush()
      await requestLogs.close()
      await renderer.close()
      await mailer.close()
      await webhookAgent.destroy()
      await database.close()
      redis?.disconnect()
    },
  }
}
