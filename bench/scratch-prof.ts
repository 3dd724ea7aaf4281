import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { a4, hundredPages } from '../test/fixtures/pdfs.ts'
import { runLoad } from './load.ts'
import { servePdf } from './pdf-server.ts'
import { closedLoop, summarize } from './post-load.ts'
import { freePort, spawnServer, stopServer, waitUntilReady } from './processes.ts'
import { FROM_PDF_PATH, inline, threeSignerBody } from './submissions.ts'

const which = process.argv[2] ?? 'one'
const connections = Number(process.argv[3] ?? 1)
const profDir = `/tmp/paraph-prof/${which}`
const dir = mkdtempSync('/tmp/paraph-prof-data-')
const port = await freePort()
const server = spawnServer(
  'paraph',
  [`--cpu-prof`, `--cpu-prof-dir=${profDir}`, 'bin/paraph.mjs', 'serve', '--no-worker'],
  {
    cwd: process.cwd(),
    port,
    logFile: `${dir}/server.log`,
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: which === 'getpg' ? process.env.PGURL! : `sqlite:${dir}/paraph.db`,
      PARAPH_SECRET: randomBytes(20).toString('hex'),
      RATE_LIMIT_TEST: '1000000',
      RATE_LIMIT_LIVE: '1000000',
      LOG_LEVEL: 'info',
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      PORT: String(port),
    },
  },
)
await waitUntilReady(server, '/healthz')
const key = /^ {2}test key {2}(sk_test_\S+)$/m.exec(readFileSync(server.logFile, 'utf8'))![1]
const pdfServer = which === 'url' ? await servePdf(await hundredPages(5_000_000)) : null
try {
  if (which === 'get' || which === 'getpg') {
    const res = await fetch(`${server.baseUrl}${FROM_PDF_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'idempotency-key': randomBytes(8).toString('hex'),
      },
      body: JSON.stringify(threeSignerBody(inline(await a4()))),
    })
    const id = ((await res.json()) as { id: string }).id
    const target = {
      url: `${server.baseUrl}/v1/submissions/${id}`,
      headers: { authorization: `Bearer ${key}` },
    }
    await runLoad(target, { seconds: 3, connections: 10 })
    console.log(await runLoad(target, { seconds: 10, connections: 10 }))
    await stopServer(server)
    process.exit(0)
  }
  const source =
    which === 'one'
      ? inline(await a4())
      : which === 'url'
        ? { pdf_url: pdfServer!.url }
        : inline(await hundredPages(3_300_000))
  const request = {
    origin: server.baseUrl,
    path: FROM_PDF_PATH,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: Buffer.from(JSON.stringify(threeSignerBody(source))),
    expectedStatus: 201,
  }
  await closedLoop(request, { seconds: 2, connections })
  console.log(summarize(await closedLoop(request, { seconds: 10, connections })))
} finally {
  await pdfServer?.close()
  await stopServer(server)
}
