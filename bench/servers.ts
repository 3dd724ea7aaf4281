// The two servers a row compares: the bare Fastify baseline and Paraph's own `serve` command, each
// in its own process with a fresh temp dir that stop() removes.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, type ServerProcess, spawnServer, stopServer, waitUntilReady } from './processes.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Stop functions of every server not yet stopped, so run.ts can clean up after a failure. */
const active = new Set<() => Promise<void>>()

export async function stopAllServers(): Promise<void> {
  await Promise.all([...active].map((stop) => stop()))
}

export interface RunningServer {
  process: ServerProcess
  /** Authorization header value, or null for the baseline. */
  bearer: string | null
  /** Paraph's DATABASE_URL, for a server that reads the same data (floor-server.ts). */
  databaseUrl?: string
  /** The environment the server runs with, for a CLI command against the same data (console.ts). */
  env?: Record<string, string>
  stop(): Promise<void>
}

async function started(
  name: string,
  args: string[],
  env: (dir: string, port: number) => Record<string, string>,
  readyPath: string,
): Promise<{ server: ServerProcess; dir: string; env: Record<string, string>; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `paraph-bench-${name}-`))
  const port = await freePort()
  // Only what the server needs: a developer's DATABASE_URL or REDIS_URL must not leak into the run.
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir }
  const fullEnv = { ...baseEnv, ...env(dir, port), PORT: String(port) }
  const server = spawnServer(name, args, {
    cwd: REPO_ROOT,
    env: fullEnv,
    port,
    logFile: join(dir, 'server.log'),
  })
  const stop = async () => {
    active.delete(stop)
    await stopServer(server)
    await rm(dir, { recursive: true, force: true })
  }
  active.add(stop)
  try {
    await waitUntilReady(server, readyPath)
  } catch (error) {
    await stop()
    throw error
  }
  return { server, dir, env: fullEnv, stop }
}

export async function startBaseline(): Promise<RunningServer> {
  const { server, stop } = await started(
    'baseline',
    ['--import', 'tsx', 'bench/baseline-server.ts'],
    () => ({}),
    '/v1/health',
  )
  return { process: server, bearer: null, stop }
}

/**
 * `paraph serve --no-worker` on a fresh data dir; databaseUrl null means SQLite in that dir.
 * `extraEnv` is added last, e.g. ALLOW_PRIVATE_NETWORK_URLS for PDFs served from loopback;
 * `nodeFlags` go to node before the binary, e.g. --inspect for the soak's heap figures;
 * `worker: true` runs `paraph serve` with its job worker (finalization rows).
 */
export async function startParaph(
  databaseUrl: string | null,
  extraEnv: Record<string, string> = {},
  nodeFlags: string[] = [],
  { worker = false }: { worker?: boolean } = {},
): Promise<RunningServer> {
  const { server, dir, env, stop } = await started(
    'paraph',
    [...nodeFlags, 'bin/paraph.mjs', 'serve', ...(worker ? [] : ['--no-worker'])],
    (dir, port) => ({
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'paraph.db')}`,
      PARAPH_SECRET: randomBytes(20).toString('hex'),
      // The bench must never be throttled: a fast machine passes a million requests in a minute.
      RATE_LIMIT_TEST: '1000000000',
      RATE_LIMIT_LIVE: '1000000000',
      RATE_LIMIT_SIGNER: '1000000000',
      // Logging stays on (to the log file): it is part of what a request costs.
      LOG_LEVEL: 'info',
      ...extraEnv,
    }),
    '/healthz',
  )
  // `serve` prints the default account's keys once, before it listens, so they are in the file by now.
  const key = /^ {2}test key {2}(sk_test_\S+)$/m.exec(readFileSync(server.logFile, 'utf8'))?.[1]
  if (!key) {
    await stop()
    throw new Error('paraph serve printed no "  test key  sk_test_…" line: was the database not empty?')
  }
  const url = databaseUrl ?? `sqlite:${join(dir, 'paraph.db')}`
  return { process: server, bearer: `Bearer ${key}`, databaseUrl: url, env, stop }
}

/** floor-server.ts reading the database of a running Paraph, as the account `accountId`. */
export async function startFloor(databaseUrl: string, accountId: string): Promise<RunningServer> {
  const { server, stop } = await started(
    'floor',
    ['--import', 'tsx', 'bench/floor-server.ts'],
    () => ({ FLOOR_DATABASE_URL: databaseUrl, FLOOR_ACCOUNT_ID: accountId }),
    '/healthz',
  )
  return { process: server, bearer: null, stop }
}

/** sign-floor-server.ts on the database of a running Paraph. */
export async function startSignFloor(databaseUrl: string): Promise<RunningServer> {
  const { server, stop } = await started(
    'sign-floor',
    ['--import', 'tsx', 'bench/sign-floor-server.ts'],
    () => ({ FLOOR_DATABASE_URL: databaseUrl }),
    '/healthz',
  )
  return { process: server, bearer: null, stop }
}

/** verify-floor-server.ts: bare Fastify taking a PDF body and hashing it (the verify row's floor). */
export async function startVerifyFloor(): Promise<RunningServer> {
  const { server, stop } = await started(
    'verify-floor',
    ['--import', 'tsx', 'bench/verify-floor-server.ts'],
    () => ({}),
    '/healthz',
  )
  return { process: server, bearer: null, stop }
}
