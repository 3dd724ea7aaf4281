// The Python SDK's tests (sdks/python/README.md) against a real Paraph on this engine: the app of
// test/harness.ts listening on loopback, test/fault-proxy.ts in front of it, and a small control
// server through which pytest asks for what only the server side can do — a fresh account, the
// worker's due jobs and webhook deliveries run now (test/purge.ts `work`), the app's clock set to
// the real time or away from it (signatures are made with the app's clock). Runs
// `/usr/bin/python3 -m pytest -q sdks/python/tests` and fails with pytest's output.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { FaultProxy } from '../../test/fault-proxy.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { work } from '../../test/purge.ts'

const PYTHON = '/usr/bin/python3'
const SDK = new URL('.', import.meta.url).pathname

describe('the Python SDK against a real Paraph', () => {
  let t: TestApp
  let proxy: FaultProxy
  let control: Server
  let dir: string

  before(async () => {
    t = await startTestApp({
      env: { ALLOW_PRIVATE_NETWORK_URLS: 'true', RATE_LIMIT_TEST: '100000' },
      clockStart: new Date(),
    })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    proxy = await FaultProxy.start(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`)
    control = await startControl(t)
    dir = await mkdtemp(join(tmpdir(), 'paraph-python-sdk-'))
    await writeFile(join(dir, 'contract.pdf'), await a4())
  })
  after(async () => {
    control?.close()
    await proxy?.close()
    await t?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('passes its pytest suite, sync and async', async () => {
    const keys = await t.account('Python SDK')
    const { code, output } = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
      cwd: SDK,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        PARAPH_BASE_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
        PARAPH_API_KEY: keys.testKey,
        PARAPH_FAULT_PROXY_URL: proxy.url,
        PARAPH_CONTROL_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
        PARAPH_TEST_PDF: join(dir, 'contract.pdf'),
        PYTHONDONTWRITEBYTECODE: '1',
      },
    })
    assert.equal(code, 0, output)
    // Every test ran: none skipped, deselected or expected to fail.
    assert.match(output, /^\d+ passed in /m, output)
    process.stdout.write(`# pytest: ${output.trim().split('\n').at(-1)}\n`)
  })

  it('type-checks the package and its tests under mypy --strict (Debian python3-mypy)', async () => {
    const { code, output } = await run(PYTHON, ['-m', 'mypy', '--cache-dir', join(dir, 'mypy')], { cwd: SDK })
    assert.equal(code, 0, output)
  })
})

/**
 * POST /account → a fresh account's test key; POST /work {clock_offset_seconds?} → the app's clock
 * set to now (plus the offset), then the due jobs and deliveries run, request logs flushed.
 */
async function startControl(t: TestApp): Promise<Server> {
  const server = createServer((req, res) => {
    void handle(t, req).then(
      (value) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

async function handle(t: TestApp, req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = chunks.length
    ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, number>)
    : {}
  if (req.url === '/account') return { api_key: (await t.account('Python SDK test')).testKey }
  if (req.url === '/work') {
    t.clock.set(new Date(Date.now() + (body.clock_offset_seconds ?? 0) * 1000))
    await work(t)
    await t.deps.requestLogs.flush()
    return { worked: true }
  }
  throw new Error(`no control route ${req.url}`)
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? { PATH: process.env.PATH ?? '' },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}
