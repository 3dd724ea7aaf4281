// The SDK tests' set-up (docs/sdks.md): a real Paraph (test/harness.ts) listening on loopback, on
// SQLite or PostgreSQL, with the fault proxy of test/fault-proxy.ts in front of it, an account, and
// SDK clients pointed at the proxy (faults and a log of what reached it) or at Paraph itself.
import type { AddressInfo } from 'node:net'
import { jobCatalogue } from '../../src/job-catalogue.ts'
import { drainJobs } from '../../src/jobs/worker.ts'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.ts'
import { base64 } from '../../test/documents.ts'
import { FaultProxy } from '../../test/fault-proxy.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp, type TestAppOptions } from '../../test/harness.ts'
import { Paraph, type ParaphOptions } from './src/paraph.ts'

export interface SdkApp {
  t: TestApp
  /** Paraph's own base URL. */
  url: string
  proxy: FaultProxy
  key: string
  /** A client through the proxy; retries wait 1–20 ms (fixed jitter) unless told otherwise. */
  client(options?: Partial<ParaphOptions>): Paraph
  close(): Promise<void>
}

export async function startSdkApp(options: TestAppOptions = {}): Promise<SdkApp> {
  const t = await startTestApp({
    ...options,
    env: { RATE_LIMIT_TEST: '100000', ALLOW_PRIVATE_NETWORK_URLS: 'true', ...options.env },
  })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  const proxy = await FaultProxy.start(url)
  const { testKey } = await t.account('SDK tests')
  return {
    t,
    url,
    proxy,
    key: testKey,
    client: (more = {}) =>
      new Paraph({
        apiKey: testKey,
        baseUrl: proxy.url,
        retry: { baseDelayMs: 20, random: () => 0.5 },
        ...more,
      }),
    async close() {
      await proxy.close()
      await t.close()
    },
  }
}

/** A from_pdf body: one A4 page with a signature field for `signer`, one submitter. */
export async function pdfBody(email = 'ann@example.eu') {
  return {
    documents: [
      {
        name: 'Contract',
        pdf_base64: base64(await a4()),
        fields: [
          {
            name: 'Signature',
            type: 'signature' as const,
            role: 'signer',
            areas: [{ page: 1, x: 0.6, y: 0.85, w: 0.3, h: 0.05 }],
          },
        ],
      },
    ],
    submitters: [{ role: 'signer', email, name: 'Ann' }],
    send_email: false,
  }
}

/** The submissions rows of the app's database (the proof that a retried creation made one). */
export async function submissionCount(t: TestApp): Promise<number> {
  const rows = await t.deps.db.selectFrom('submissions').select('id').execute()
  return rows.length
}

/** Runs the due jobs (events.publish among them), then sends the due webhook deliveries. */
export async function work(t: TestApp): Promise<void> {
  await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  await new WebhookDispatcher(t.deps).drain()
}

/** A template body: one A4 page, a signature field for `signer`. */
export async function templateBody(name: string) {
  const { documents } = await pdfBody()
  return { name, documents: documents.map(({ name: _, ...document }) => document) }
}
