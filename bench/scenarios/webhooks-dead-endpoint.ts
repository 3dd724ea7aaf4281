// Issue #13, Performance, third row: with 10 000 deliveries pending to a dead endpoint, the
// authenticated GET /v1/submissions/{id} of the same `paraph serve` (worker and dispatcher on)
// keeps ≥ 90 % of its throughput. Per engine and per kind of death — a receiver that accepts the
// connection and never answers (each attempt waits the 10 s deadline), and a closed port (each
// attempt is refused at once) — GET is measured closed-loop for 5 s with nothing pending, then
// 10 000 deliveries of one event are written to the dead endpoint straight into the database (as
// events.publish would after 10 000 events) and GET is measured again for 5 s while the
// dispatcher works on them. The two runs follow each other on one server, so the machine's drift
// counts; the verdict is the loaded run's share of the quiet one.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pendingDelivery } from '../../src/webhooks/delivery-store.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { runLoad } from '../load.ts'
import { inThrowawaySchema } from '../postgres.ts'
import { freePort } from '../processes.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { createSubmission, inline, jsonHeaders } from '../submissions.ts'
import { openBenchDatabase } from '../worker-runs.ts'

const NAME = 'webhooks: GET /v1/submissions/{id} beside 10 000 deliveries to a dead endpoint'
const PENDING = 10_000
const SECONDS = 5
const CONNECTIONS = 10

type Death = 'no answer' | 'refused'

async function deadUrl(death: Death): Promise<{ url: string; close(): Promise<void> }> {
  if (death === 'refused') {
    const port = await freePort()
    return { url: `http://127.0.0.1:${port}/dead`, close: async () => {} }
  }
  const server: Server = createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/dead`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** 10 000 pending deliveries of the submission's first event to the endpoint, in batches. */
async function fillBacklog(databaseUrl: string, endpointId: string): Promise<void> {
  const database = openBenchDatabase(databaseUrl)
  try {
    const endpoint = await database.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', endpointId)
      .executeTakeFirstOrThrow()
    const event = await database.db
      .selectFrom('events')
      .selectAll()
      .where('account_id', '=', endpoint.account_id)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const at = new Date().toISOString()
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      data: JSON.parse(event.data),
    })
    for (let start = 0; start < PENDING; start += 500) {
      const rows = Array.from({ length: 500 }, (_, i) =>
        pendingDelivery(
          {
            id: `dlv_bench${String(start + i).padStart(19, '0')}`,
            account_id: endpoint.account_id,
            environment: endpoint.environment,
            endpoint_id: endpoint.id,
            event_id: `evt_bench${String(start + i).padStart(19, '0')}`,
            event_type: event.type,
            event_created_at: at,
            body,
          },
          at,
        ),
      )
      await database.db.insertInto('webhook_deliveries').values(rows).execute()
    }
  } finally {
    await database.close()
  }
}

async function measureGet(server: RunningServer, path: string) {
  return runLoad(
    { url: `${server.process.baseUrl}${path}`, headers: { authorization: server.bearer ?? '' } },
    { seconds: SECONDS, connections: CONNECTIONS },
  )
}

async function oneCase(databaseUrl: string | null, engine: string, death: Death): Promise<LimitRow> {
  const dead = await deadUrl(death)
  const paraph = await startParaph(databaseUrl, { ALLOW_PRIVATE_NETWORK_URLS: 'true' }, [], { worker: true })
  try {
    const response = await fetch(`${paraph.process.baseUrl}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: jsonHeaders(paraph),
      body: JSON.stringify({ url: dead.url, events: ['submission.completed'] }),
    })
    const endpointId = ((await response.json()) as { id: string }).id
    const path = `/v1/submissions/${await createSubmission(paraph, inline(await a4()))}`
    await measureGet(paraph, path) // warm-up
    const quiet = await measureGet(paraph, path)
    await fillBacklog(paraph.databaseUrl!, endpointId)
    const loaded = await measureGet(paraph, path)
    const share = loaded.rps / quiet.rps
    return {
      scenario: NAME,
      case: `${engine}, dead endpoint: ${death}`,
      figures: {
        ok: loaded.total - loaded.non2xx - loaded.errors,
        sent: loaded.total,
        rps: loaded.rps,
        latencyLoad: `${CONNECTIONS} at once`,
        p50Ms: loaded.p50Ms,
        p99Ms: loaded.p99Ms,
        maxMs: loaded.maxMs,
        cpuMicrosPerRequest: null,
        childCpuMicrosPerRequest: null,
      },
      reference: `quiet ${quiet.rps} req/s (p99 ${quiet.p99Ms} ms)`,
      notes: [
        `${engine}, ${death}: ${loaded.rps} req/s with the backlog vs ${quiet.rps} without: ${(100 * share).toFixed(1)} %`,
      ],
      // Judged as the shortfall: at most 10 % below the quiet run.
      judged: {
        label: 'shortfall',
        value: Math.max(0, 100 - 100 * share),
        max: 10,
        unit: '%',
        derivation: 'below the quiet run',
      },
    }
  } finally {
    await paraph.stop()
    await dead.close()
  }
}

export const webhooksDeadEndpointScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'paraph serve (worker and dispatcher on): GET /v1/submissions/{id} closed-loop, without and then with 10 000 deliveries pending to a dead endpoint',
  goal: 'with the backlog, ≥ 90 % of the GET throughput without it (shortfall < 10 %)',
  run: async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = []
    for (const death of ['no answer', 'refused'] as const) {
      rows.push(await oneCase(null, 'sqlite', death))
      const pg = await inThrowawaySchema(ctx.postgresUrl, (url) => oneCase(url, 'postgres', death))
      rows.push(pg ?? { scenario: NAME, case: `postgres, ${death}`, skipped: 'PostgreSQL unreachable' })
    }
    return rows
  },
}
