// Builds the real app against a real database for one test file: SQLite in a temporary directory,
// or PostgreSQL in a schema of its own that is dropped afterwards (PARAPH_TEST_DB=postgres).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { createAccount } from '../src/accounts/create-account.ts'
import { API_ROUTES, buildApp } from '../src/app.ts'
import { type Config, readConfig } from '../src/config.ts'
import { migrate } from '../src/db/database.ts'
import { createDeps, type Deps, type DepsOverrides } from '../src/deps.ts'
import type { AnyRoute } from '../src/http/define-route.ts'
import type { Resolve } from '../src/lib/address-policy.ts'
import { ManualClock } from '../src/lib/clock.ts'
import { randomBase62 } from '../src/lib/ids.ts'

export const ENGINE = process.env.PARAPH_TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
export const PG_URL = process.env.PARAPH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.PARAPH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Log lines written by the app, parsed. */
export class LogCapture extends Writable {
  readonly lines: string[] = []
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    done()
  }
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  }
}

export interface TestApp {
  app: FastifyInstance
  deps: Deps
  clock: ManualClock
  logs: LogCapture
  config: Readonly<Config>
  /** The environment the app was configured from: a `paraph` process given it shares the app's data. */
  env: Record<string, string>
  /** Prefix of this app's rate-limit counters in Redis. */
  rateLimitPrefix: string
  /** Creates an account and returns its keys. */
  account(name?: string): Promise<{ accountId: string; testKey: string; liveKey: string }>
  /** app.inject with a Bearer key. */
  request(key: string, options: InjectOptions): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

export interface TestAppOptions {
  routes?: AnyRoute[]
  env?: Record<string, string>
  /** A test certificate the app trusts for outbound HTTPS. */
  trustedCa?: string
  /**
   * Where the app's manual clock starts (default: a fixed instant). A test that hands the app's
   * timestamps to a real outside party that checks them against its own clock (s3rver and the
   * lifetime of presigned URLs) starts it at the real time instead.
   */
  clockStart?: Date
  /** DNS for webhook URLs (names only the test knows). */
  resolve?: Resolve
  /** Overall deadline of a webhook POST (a real socket timing out, shortened). */
  webhookTimeoutMs?: number
  /** The HTML renderer's timeout, concurrency, queue, page cap or hooks. */
  renderer?: DepsOverrides['renderer']
}

export async function createSchema(): Promise<string> {
  const schema = `paraph_test_${randomBase62(10).toLowerCase()}`
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  return schema
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  await client.query(`drop schema if exists ${schema} cascade`)
  await client.end()
}

/** The DATABASE_URL of a PostgreSQL schema, chosen through libpq's `options` parameter. */
export function pgUrlForSchema(schema: string): string {
  return `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
}

/** Environment variables for a Paraph process (in-process app or spawned CLI) of one test. */
export function testEnv(dataDir: string, schema: string | undefined, extra: Record<string, string> = {}) {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: schema ? pgUrlForSchema(schema) : `sqlite:${join(dataDir, 'paraph.db')}`,
    PARAPH_SECRET: randomBase62(40),
    // The default's value, given explicitly: `paraph worker` and `serve --no-worker` require it.
    PUBLIC_URL: 'http://127.0.0.1:8080',
    ...extra,
  }
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'paraph-test-'))
  const schema = ENGINE === 'postgres' ? await createSchema() : undefined
  const env = testEnv(dataDir, schema, options.env)
  const config = readConfig(env)
  const clock = new ManualClock(options.clockStart ?? '2026-11-22T10:00:00.000Z')
  const logs = new LogCapture()
  const rateLimitPrefix = `paraph:test:${randomBase62(10)}`
  const deps = await createDeps(config, {
    clock,
    logDestination: logs,
    rateLimitPrefix,
    trustedCa: options.trustedCa,
    resolve: options.resolve,
    webhookTimeoutMs: options.webhookTimeoutMs,
    renderer: options.renderer,
  })
  await migrate(deps.db, deps.engine)
  const app = buildApp(deps, options.routes ?? API_ROUTES)
  await app.ready()
  return {
    app,
    deps,
    clock,
    logs,
    config,
    env,
    rateLimitPrefix,
    async account(name = 'Test account') {
      const created = await createAccount(deps, { name })
      return { accountId: created.account_id, testKey: created.test_key, liveKey: created.live_key }
    },
    request(key, injectOptions) {
      return app.inject({
        ...injectOptions,
        headers: { authorization: `Bearer ${key}`, ...injectOptions.headers },
      })
    },
    async close() {
      await app.close()
      await deps.close()
      if (schema) await dropSchema(schema)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A response's body, followed for a 5xx by what the app logged about that request (its error and
 * stack): an assertion message that says why, where the envelope only says "it has been logged".
 */
export function whatHappened(t: Pick<TestApp, 'logs'>, response: LightMyRequestResponse): string {
  if (response.statusCode < 500) return response.body
  const requestId = response.headers['request-id']
  const logged = t.logs
    .entries()
    .filter((entry) => entry.request_id === requestId && Number(entry.level) >= 50)
    .map((entry) => JSON.stringify(entry.err ?? entry.msg))
  return [response.body, ...logged].join('\n')
}

/** The error envelope of a response, asserted to have exactly the spec's shape. */
export function errorOf(response: LightMyRequestResponse): {
  type: string
  code: string
  message: string
  param?: string
} {
  const body = response.json() as { error: { type: string; code: string; message: string; param?: string } }
  if (Object.keys(body).join() !== 'error') throw new Error(`not an error envelope: ${response.body}`)
  const { type, code, message, param } = body.error
  const strings = [type, code, message, ...('param' in body.error ? [param] : [])]
  if (strings.some((value) => typeof value !== 'string')) {
    throw new Error(`malformed error envelope: ${response.body}`)
  }
  return body.error
}
