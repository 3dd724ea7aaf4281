// The purge scenario's worker (bench/scenarios/purge.ts): a process of its own, as `paraph worker`
// would be, that applies the retention policies once with no time budget (`applyRetention(deps,
// Infinity)`; the bench's PARAPH_PURGE_BUDGET_MS, a deadline, stops it early) on the database and blob store of the environment it is given, then prints how many
// it purged, how long that took and its own CPU time. The clock starts after the process is up (deps created).
import { readConfig } from '../src/config.ts'
import { createDeps } from '../src/deps.ts'
import { applyRetention } from '../src/privacy/apply-retention.ts'

const deps = await createDeps(readConfig())
try {
  console.log(JSON.stringify({ started: Date.now() }))
  const started = performance.now()
  const cpu = process.cpuUsage()
  const purged = await applyRetention(
    deps,
    Number(process.env.PARAPH_PURGE_BUDGET_MS ?? Number.POSITIVE_INFINITY),
  )
  const { user, system } = process.cpuUsage(cpu)
  console.log(JSON.stringify({ purged, ms: performance.now() - started, cpuMicros: user + system }))
} finally {
  await deps.close()
}
