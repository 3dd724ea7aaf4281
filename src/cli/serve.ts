import { join, resolve } from 'node:path'
import { createDefaultAccountOnce } from '../accounts/create-account.ts'
import { buildApp } from '../app.ts'
import type { Config } from '../config.ts'
import { createDeps } from '../deps.ts'
import { jobCatalogue, periodicTasks } from '../job-catalogue.ts'
import { runWorker } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { closePdfInspector } from '../pdf/read/inspect-pdf.ts'
import { closeDocxConverter } from '../render/docx-to-html.ts'
import { closeHtmlTagger } from '../render/html-tagger.ts'
import { WebhookDispatcher } from '../webhooks/dispatcher.ts'
import {
  loadConfig,
  migrateWhenReachable,
  prepareSealingIdentity,
  requirePublicUrl,
  serveMetrics,
  warnAboutConfig,
} from './context.ts'

/**
 * What the banner's `npx paraph …` commands need to reach this server's data and print links to it:
 * the settings of this process that differ from the defaults (a command run without them would use
 * another database, or print links to port 8080). A PostgreSQL URL is not printed (it may hold a
 * password): the banner asks for the same one instead.
 */
export function commandPrefix(
  config: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'dataDir' | 'database'>,
  address: string,
  cwd: string,
): string {
  const parts: string[] = []
  // Unset, PUBLIC_URL follows PORT: the address bound (PORT=0 picks one) is what links must name.
  const publicUrl = config.publicUrlSet ? config.publicUrl : address
  if (publicUrl !== 'http://127.0.0.1:8080') parts.push(`PUBLIC_URL=${publicUrl}`)
  if (config.dataDir !== resolve(cwd, 'data')) parts.push(`DATA_DIR=${config.dataDir}`)
  const defaultDb =
    config.database.engine === 'sqlite' && config.database.path === join(config.dataDir, 'paraph.db')
  if (!defaultDb) parts.push('DATABASE_URL="$DATABASE_URL"')
  return parts.map((p) => `${p} `).join('')
}

function printDefaultAccount(
  account: { account_id: string; test_key: string; live_key: string },
  address: string,
  prefix: string,
): void {
  console.log(
    [
      '',
      'Paraph created a default account on this empty database. Its keys are shown ONCE and kept only as hashes:',
      `  account   ${account.account_id}`,
      `  test key  ${account.test_key}`,
      `  live key  ${account.live_key}`,
      `Try: curl -H "Authorization: Bearer ${account.test_key}" ${address}/v1/health`,
      `Web console (${address}/console/): let your address in, then print a sign-in link:`,
      `  ${prefix}npx paraph members add --account ${account.account_id} --email you@example.com`,
      `  ${prefix}npx paraph console-link --email you@example.com`,
      '',
    ].join('\n'),
  )
}

/** `paraph serve [--no-worker]`: API and signing pages, plus the job worker unless told otherwise. */
export async function serve(options: { worker: boolean }): Promise<void> {
  const config = loadConfig()
  if (!options.worker) requirePublicUrl(config, 'paraph serve --no-worker')
  const deps = await createDeps(config)
  warnAboutConfig(deps)
  // Chromium starts beside migrations, so the first from_html does not wait for it; a missing
  // browser only warns: everything but from_html and from_docx works without one.
  // The renderer has logged why (naming CHROMIUM_PATH).
  deps.renderer.warm().catch(() => {})
  // docs/operations.md#e-mail-addresses: the SMTP server is asked at start whether it announces
  // SMTPUTF8, and one line says what it answered (the SMTP mailer logs it; the outbox needs none).
  void deps.mailer.utf8Delivery()
  const applied = await migrateWhenReachable(deps)
  if (applied.length > 0) deps.logger.info({ migrations: applied }, 'migrations applied')
  const created = await createDefaultAccountOnce(deps)
  if (options.worker) await prepareSealingIdentity(deps)

  const app = buildApp(deps)
  const metrics = await serveMetrics(deps)
  const stopWorker = new AbortController()
  const worker = options.worker
    ? runWorker(
        { ...deps, catalogue: jobCatalogue(deps), leaseMs: deps.config.jobLeaseSeconds * 1000 },
        stopWorker.signal,
        {
          periodicTasks: periodicTasks(deps),
          concurrency: deps.config.workerConcurrency,
        },
      )
    : Promise.resolve()
  const dispatching = options.worker ? new WebhookDispatcher(deps).run(stopWorker.signal) : Promise.resolve()

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    deps.logger.info({ signal }, 'shutting down')
    stopWorker.abort()
    await app.close()
    await metrics?.close()
    await worker
    // Claims nothing more and waits for the webhook attempts in flight (10 s at most each).
    await dispatching
    // Requests have drained, so no inspection is waiting: the warm PDF readers can go.
    closePdfInspector()
    closePdfFinalizer()
    closeDocxConverter()
    closeHtmlTagger()
    await deps.close()
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))

  const address = await app.listen({ port: config.port, host: config.host })
  deps.logger.info(
    { address, engine: deps.engine, worker: options.worker, public_url: config.publicUrl },
    'paraph is listening',
  )
  // After listening, so the banner names the address actually bound (PORT=0 picks one).
  if (created) printDefaultAccount(created, address, commandPrefix(config, address, process.cwd()))
  console.log(
    `Paraph listening on ${address} (database: ${deps.engine}; API description: ${config.publicUrl}/openapi.yaml)`,
  )
}
