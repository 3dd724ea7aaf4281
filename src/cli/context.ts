import { type Config, ConfigError, readConfig } from '../config.ts'
import { migrate } from '../db/database.ts'
import { createDeps, type Deps } from '../deps.ts'
import { LIMITS } from '../limits.ts'
import { type MetricsServer, startMetricsServer } from '../metrics/metrics-server.ts'
import { loadSigningCertificate, type SealingIdentity } from '../pdf/seal/signing-certificate.ts'
import { identitySource } from '../submissions/finalize-submission.ts'

/** Thrown by commands for a failure to report in one line (main.ts prints it and exits 1). */
export class CliError extends Error {}

export function loadConfig(): Readonly<Config> {
  try {
    return readConfig()
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message)
    throw error
  }
}

/** Connection failures a database that is starting, restarting or overloaded gives: worth a retry. */
function isUnreachable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string }
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', '57P03', '53300'].includes(code))
    return true
  return /timeout|terminated|Connection terminated/i.test(message ?? '')
}

/**
 * The schema migrated once the database answers (docs/operations.md#starting-before-the-database):
 * a long-running process (serve, worker) started before its PostgreSQL is ready, or while a
 * loaded one takes longer than the 1 s connect deadline, tries again every second for up to
 * `LIMITS.dbStartWaitMs`, saying so once; any other failure (a wrong password, no such database)
 * stops it at once. SQLite has nothing to wait for.
 */
export async function migrateWhenReachable(deps: Deps): Promise<string[]> {
  const deadline = Date.now() + LIMITS.dbStartWaitMs
  let said = false
  for (;;) {
    try {
      return await migrate(deps.db, deps.engine)
    } catch (error) {
      if (deps.engine !== 'postgres' || !isUnreachable(error) || Date.now() > deadline) throw error
      if (!said) {
        deps.logger.warn(
          { reason: (error as Error).message, wait_s: LIMITS.dbStartWaitMs / 1000 },
          'waiting for the database',
        )
        said = true
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
}

/** Deps for a command, with the schema migrated; closed after the command. */
export async function withDeps<T>(run: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig()
  const deps = await createDeps(config)
  try {
    await migrate(deps.db, deps.engine)
    return await run(deps)
  } finally {
    await deps.close()
  }
}

/**
 * In a split deployment (`paraph worker`, `paraph serve --no-worker`) one process writes
 * links that others serve: a worker has no port of its own, and an API process behind a load
 * balancer is not reached at its own address. The default (`http://127.0.0.1:$PORT`) would point
 * every completion notice, webhook payload and signing link at nothing, so these commands refuse
 * to start without PUBLIC_URL.
 */
export function requirePublicUrl(config: Readonly<Config>, command: string): void {
  if (config.publicUrlSet) return
  throw new CliError(
    `PUBLIC_URL is not set: \`${command}\` runs beside other Paraph processes and writes links (signing pages, files, audit_log_url) that clients must reach; set PUBLIC_URL to the address the API is reached at, the same on every process (e.g. PUBLIC_URL=https://sign.example.com).`,
  )
}

export function warnAboutConfig(deps: Deps): void {
  if (deps.config.allowPrivateNetworkUrls) {
    deps.logger.warn(
      'ALLOW_PRIVATE_NETWORK_URLS=true: webhook and PDF URLs may reach loopback and private addresses, and http: PDF URLs are allowed. Development and tests only.',
    )
  }
  if (deps.config.reminderHourSeconds !== 3600) {
    deps.logger.warn(
      `REMINDER_HOUR_SECONDS=${deps.config.reminderHourSeconds}: one hour of the reminder policy lasts ${deps.config.reminderHourSeconds} s instead of 3600. Tests and demonstrations only.`,
    )
  }
  if (!deps.config.paraphSecret && deps.config.database.engine === 'postgres') {
    deps.logger.warn(
      `PARAPH_SECRET is not set: using the secret kept in ${deps.config.dataDir}. Set the same PARAPH_SECRET on every process when running several.`,
    )
  }
}

/**
 * The certificate that seals final PDFs, checked (or generated, once) before a worker takes jobs:
 * a wrong SIGNING_CERT_PASSWORD stops the process at start rather than failing every finalization.
 */
export async function prepareSealingIdentity(deps: Deps): Promise<void> {
  let identity: SealingIdentity
  try {
    identity = await loadSigningCertificate(identitySource(deps))
  } catch (error) {
    throw new CliError((error as Error).message)
  }
  const { source, commonName, notAfter } = identity
  if (source.kind === 'self-signed' && source.created) {
    deps.logger.info(
      { path: source.path },
      'generated a self-signed certificate to seal final PDFs (set SIGNING_CERT_P12 to use your own)',
    )
  }
  if (notAfter.getTime() < deps.clock.epochMs() + 30 * 24 * 60 * 60 * 1000) {
    deps.logger.warn(
      { not_after: notAfter.toISOString(), subject: commonName },
      'the sealing certificate expires within 30 days',
    )
  }
}

/**
 * METRICS_LISTEN (docs/operations.md#metrics): this process's GET /metrics on its own listener;
 * null when unset. An address that cannot be bound stops the start with one line naming the
 * variable.
 */
export async function serveMetrics(deps: Deps): Promise<MetricsServer | null> {
  const listen = deps.config.metricsListen
  if (!listen || !deps.metrics.registry) return null
  let server: MetricsServer
  try {
    server = await startMetricsServer(listen, deps.metrics.registry, deps.logger)
  } catch (error) {
    throw new CliError(
      `METRICS_LISTEN: cannot listen on ${listen.host}:${listen.port} (${(error as Error).message})`,
    )
  }
  deps.logger.info({ metrics_address: server.address }, 'metrics listening')
  return server
}
