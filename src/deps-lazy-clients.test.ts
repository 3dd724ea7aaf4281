// The clients of the optional outside systems (Redis, SMTP, S3) are loaded only when configured:
// createDeps on the embedded defaults loads none of them, so neither a small install nor each test
// file's process pays their 0.1–0.2 s of CPU apiece. Each case runs createDeps in a fresh Node.js
// process that records every module it resolves (module.registerHooks).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { SmtpTestServer } from '../test/fixtures/smtp.ts'
import { REDIS_URL } from '../test/harness.ts'

const run = promisify(execFile)
const DEPS = new URL('./deps.ts', import.meta.url).href
const CONFIG = new URL('./config.ts', import.meta.url).href
const CLIENTS = ['/node_modules/ioredis/', '/node_modules/nodemailer/', '/node_modules/@aws-sdk/client-s3/']

/** The packages of CLIENTS that createDeps(readConfig(env)) loaded, in a process of its own. */
async function clientsLoaded(env: Record<string, string>): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module'
    const seen = new Set()
    registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); seen.add(found.url); return found } })
    const { readConfig } = await import(${JSON.stringify(CONFIG)})
    const { createDeps } = await import(${JSON.stringify(DEPS)})
    const deps = await createDeps(readConfig(${JSON.stringify(env)}))
    await deps.close()
    const clients = ${JSON.stringify(CLIENTS)}
    console.log(JSON.stringify(clients.filter((client) => [...seen].some((url) => url.includes(client)))))
  `
  const typescript = process.features.typescript ? [] : ['--import', 'tsx']
  const { stdout } = await run(process.execPath, [...typescript, '--input-type=module', '--eval', script], {
    timeout: 60_000,
  })
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]')
}

describe('the optional clients', () => {
  const dirs: string[] = []
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })
  async function baseEnv(): Promise<Record<string, string>> {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-lazy-'))
    dirs.push(dir)
    return { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'paraph.db')}`, PARAPH_SECRET: 'x'.repeat(40) }
  }

  it('are not loaded on the embedded defaults, nor for an S3 store not yet used', async () => {
    const env = {
      ...(await baseEnv()),
      STORAGE_URL: 's3://bucket?endpoint=http://127.0.0.1:1&force_path_style=true',
    }
    assert.deepEqual(await clientsLoaded(env), [])
  })

  it('are loaded when REDIS_URL and SMTP_URL name a server', async () => {
    const smtp = await SmtpTestServer.start()
    try {
      const env = { ...(await baseEnv()), REDIS_URL, SMTP_URL: smtp.url }
      assert.deepEqual(await clientsLoaded(env), CLIENTS.slice(0, 2))
    } finally {
      await smtp.stop()
    }
  })
})
