import { createDeps } from '../deps.ts'
import { jobCatalogue, periodicTasks } from '../job-catalogue.ts'
import { runWorker } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { WebhookDispatcher } from '../webhooks/dispatcher.ts'
import {
  loadConfig,
  migrateWhenReachable,
  prepareSealingIdentity,
  requirePublicUrl,
  serveMetrics,
  warnAboutConfig,
} from './context.ts'

/** `paraph worker`: only the background jobs, for deployments that scale API and workers apart. */
export async function worker(): Promise<void> {
  const config = loadConfig()
  requirePublicUrl(config, 'paraph worker')
  const deps = await createDeps(config)
  warnAboutConfig(deps)
  await migrateWhenReachable(deps)
  await prepareSealingIdentity(deps)
  const metrics = await serveMetrics(deps)
  const stop = new AbortController()
  process.once('SIGINT', () => stop.abort())
  process.once('SIGTERM', () => stop.abort())
  deps.logger.info({ engine: deps.engine }, 'paraph worker started')
  const dispatching = new WebhookDispatcher(deps).run(stop.signal)
  await runWorker(
    { ...deps, catalogue: jobCatalogue(deps), leaseMs: deps.config.jobLeaseSeconds * 1000 },
    stop.signal,
    {
      periodicTasks: periodicTasks(deps),
      concurrency: deps.config.workerConcurrency,
    },
  )
  await dispatching
  await metrics?.close()
  closePdfFinalizer()
  await deps.close()
  deps.logger.info('paraph worker stopped')
}
