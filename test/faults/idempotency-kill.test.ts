// An API process SIGKILLed while it creates a submission leaves its
// Idempotency-Key claimed; the client's retry on another API process gets 409
// idempotency_key_in_use (Retry-After) while the dead claim's lease runs, then, within 10 s of the
// kill, the creation itself: once, whatever the rounds. The slow creation is a from_pdf whose
// pdf_url is served by a test server that holds the first request of each round unanswered.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { randomBase62 } from '../../src/lib/ids.ts'
import { a4 } from '../fixtures/pdfs.ts'
import { createSchema, dropSchema, ENGINE, testEnv } from '../harness.ts'
import { type ParaphProcess, prepareDatabase, startServe, until } from '../paraph-process.ts'

const ROUNDS = 5

describe('an API process killed during a creation frees its Idempotency-Key within 10 s', () => {
  let schema: string | undefined
  let dataDir: string
  let env: Record<string, string>
  let key: string
  let pdfServer: Server
  let pdfUrl: string
  /** Requests to the PDF server that are held unanswered, one per round; the rest get the PDF. */
  let holdNext = false
  const held: Array<() => void> = []
  let survivor: { process: ParaphProcess; base: string }
  const killed: ParaphProcess[] = []

  before(async () => {
    schema = ENGINE === 'postgres' ? await createSchema() : undefined
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-idem-kill-'))
    env = testEnv(dataDir, schema, {
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_TEST: '100000',
    })
    const pdf = await a4()
    pdfServer = createServer((req, res) => {
      if (holdNext) {
        holdNext = false
        held.push(() => res.destroy())
        return
      }
      req.resume()
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf)
    })
    await new Promise<void>((resolve) => pdfServer.listen(0, '127.0.0.1', resolve))
    pdfUrl = `http://127.0.0.1:${(pdfServer.address() as AddressInfo).port}/contract.pdf`
    key = await prepareDatabase(env)
    survivor = await startServe(['--no-worker'], env)
  })

  after(async () => {
    for (const release of held) release()
    await Promise.all([survivor?.process.stop(), ...killed.map((p) => p.kill())])
    await new Promise((resolve) => pdfServer.close(resolve))
    if (schema) await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  const create = (base: string, idempotencyKey: string) =>
    fetch(`${base}/v1/submissions/from_pdf`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({
        documents: [
          {
            name: 'Contract',
            pdf_url: pdfUrl,
            fields: [
              { name: 'Signature', role: 'signer', areas: [{ page: 1, x: 0.6, y: 0.8, w: 0.3, h: 0.05 }] },
            ],
          },
        ],
        submitters: [{ role: 'signer', email: 'ann@example.eu' }],
      }),
    })

  it(`${ROUNDS} rounds: 409 with Retry-After while the lease runs, then one creation within 10 s`, async (t) => {
    const freedAfter: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const doomed = await startServe(['--no-worker'], env)
      killed.push(doomed.process)
      const idempotencyKey = `kill-round-${round}-${randomBase62(8)}`
      holdNext = true
      const heldBefore = held.length
      // The first attempt: claimed, then waiting on the PDF server when its process dies.
      const first = create(doomed.base, idempotencyKey).catch(() => null)
      await until('the doomed process fetches the PDF', async () =>
        held.length > heldBefore ? true : undefined,
      )
      await doomed.process.kill()
      const killedAt = Date.now()
      assert.equal(await first, null, 'the killed process never answered')

      const retry = await create(survivor.base, idempotencyKey)
      assert.equal(retry.status, 409, await retry.clone().text())
      assert.equal(((await retry.json()) as { error: { code: string } }).error.code, 'idempotency_key_in_use')
      assert.equal(retry.headers.get('retry-after'), '1')

      const createdBody = await until(
        'the key is free again',
        async () => {
          const res = await create(survivor.base, idempotencyKey)
          if (res.status === 409) {
            await res.body?.cancel()
            return undefined
          }
          assert.equal(res.status, 201, await res.clone().text())
          return res.json() as Promise<{ id: string }>
        },
        15_000,
      )
      freedAfter.push(Date.now() - killedAt)
      t.diagnostic(`round ${round}: key free ${Date.now() - killedAt} ms after the kill`)
      // The same key again: the stored answer, not a second creation.
      const replay = await create(survivor.base, idempotencyKey)
      assert.equal(replay.status, 201)
      assert.equal(replay.headers.get('idempotent-replayed'), 'true')
      assert.equal(((await replay.json()) as { id: string }).id, createdBody.id)
    }
    for (const ms of freedAfter) assert.ok(ms < 10_000, `freed ${freedAfter.join(', ')} ms after the kill`)
    const list = await fetch(`${survivor.base}/v1/submissions?limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    })
    assert.equal(((await list.json()) as { data: unknown[] }).data.length, ROUNDS, 'one creation per key')
  })
})
