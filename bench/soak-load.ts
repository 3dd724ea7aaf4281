// The soak's load: a closed loop of mixed requests against one Paraph, in the
// proportions of the reported run (80 000 requests, about 4 000 of them creations): creations
// from a PDF and from a template, reads of submissions created earlier, lists (filtered and
// paged on), and cancels. The mix is drawn from a seeded generator so two runs send the same.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { Pool } from 'undici'
import type { RunningServer } from './servers.ts'
import { FROM_PDF_PATH, jsonHeaders } from './submissions.ts'

export type SoakOperation = 'from_pdf' | 'from_template' | 'get' | 'list' | 'cancel'

/** Percent of requests per operation. */
export const SOAK_MIX: ReadonlyArray<readonly [SoakOperation, number]> = [
  ['from_pdf', 3],
  ['from_template', 3],
  ['get', 62],
  ['list', 28],
  ['cancel', 4],
]

export interface SoakSetup {
  server: RunningServer
  /** JSON bodies of the two creations; every request gets a fresh Idempotency-Key. */
  fromPdfBody: Buffer
  fromTemplateBody: Buffer
  templateId: string
  /** A submission created beforehand, so the first reads have something to read. */
  firstSubmissionId: string
}

export interface OperationCounts {
  sent: number
  ok: number
}

export interface SoakProgress {
  counts: Record<SoakOperation, OperationCounts>
  latenciesMs: number[]
  firstFailure: string | null
}

/** Reads pick among the most recent submissions; older ones are forgotten so the client stays small. */
const REMEMBERED = 2_000

/** mulberry32: a small seeded generator, uniform enough to draw a mix. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

interface Request {
  /** What was sent: a cancel with nothing left to cancel is sent as a read. */
  operation: SoakOperation
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  body?: Buffer
  expected: number
  /** Called with the parsed answer when it had the expected status. */
  onOk?: (body: Record<string, unknown>) => void
}

/** Drives the mix over `connections` clients until `until()` says stop. */
export async function runSoakLoad(
  setup: SoakSetup,
  options: { connections: number; until: () => boolean; progress: SoakProgress },
): Promise<void> {
  const random = seeded(10_005)
  const known: string[] = [setup.firstSubmissionId]
  const pending: string[] = []
  let nextCursor: string | null = null
  const created = (body: Record<string, unknown>) => {
    const id = String(body.id)
    known.push(id)
    pending.push(id)
    if (known.length > REMEMBERED) known.shift()
    if (pending.length > REMEMBERED) pending.shift()
  }
  const pick = (): SoakOperation => {
    let draw = random() * 100
    for (const [operation, share] of SOAK_MIX) {
      draw -= share
      if (draw < 0) return operation
    }
    return 'get'
  }
  // A cursor is valid only with the filters it came from: only the unfiltered list is paged on.
  const UNFILTERED = '/v1/submissions?limit=20'
  const listPath = (): string => {
    const variant = Math.floor(random() * 4)
    if (variant === 0 && nextCursor) return `${UNFILTERED}&cursor=${encodeURIComponent(nextCursor)}`
    if (variant === 1) return '/v1/submissions?status=created&limit=10'
    if (variant === 2) return `/v1/submissions?template_id=${setup.templateId}&limit=5`
    return UNFILTERED
  }
  const requestFor = (operation: SoakOperation): Request => {
    const readPath = () => `/v1/submissions/${known[Math.floor(random() * known.length)]}`
    switch (operation) {
      case 'from_pdf':
        return {
          operation,
          method: 'POST',
          path: FROM_PDF_PATH,
          body: setup.fromPdfBody,
          expected: 201,
          onOk: created,
        }
      case 'from_template':
        return {
          operation,
          method: 'POST',
          path: '/v1/submissions',
          body: setup.fromTemplateBody,
          expected: 201,
          onOk: created,
        }
      case 'list': {
        const path = listPath()
        const paged = (page: Record<string, unknown>) => {
          nextCursor = typeof page.next_cursor === 'string' ? page.next_cursor : null
        }
        return {
          operation,
          method: 'GET',
          path,
          expected: 200,
          onOk: path.startsWith(UNFILTERED) ? paged : undefined,
        }
      }
      case 'cancel': {
        const id = pending.shift()
        if (id) return { operation, method: 'DELETE', path: `/v1/submissions/${id}`, expected: 200 }
        return { operation: 'get', method: 'GET', path: readPath(), expected: 200 }
      }
      case 'get':
        return { operation, method: 'GET', path: readPath(), expected: 200 }
    }
  }

  const pool = new Pool(setup.server.process.baseUrl, {
    connections: options.connections,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  })
  const headers = jsonHeaders(setup.server)
  // Fastify refuses a JSON content type without a body (a DELETE), so only a POST declares one.
  const { 'content-type': _, ...bodiless } = headers
  const { progress } = options
  const send = async (request: Request) => {
    const count = progress.counts[request.operation]
    count.sent++
    const started = performance.now()
    try {
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.body ? { ...headers, 'idempotency-key': randomUUID() } : bodiless,
        body: request.body,
      })
      const text = await response.body.text()
      progress.latenciesMs.push(performance.now() - started)
      if (response.statusCode !== request.expected) {
        progress.firstFailure ??= `${request.method} ${request.path}: HTTP ${response.statusCode}: ${text.slice(0, 200)}`
        return
      }
      count.ok++
      request.onOk?.(JSON.parse(text) as Record<string, unknown>)
    } catch (error) {
      progress.latenciesMs.push(performance.now() - started)
      progress.firstFailure ??= `${request.method} ${request.path}: ${error instanceof Error ? error.message : error}`
    }
  }
  const client = async () => {
    while (!options.until()) {
      await send(requestFor(pick()))
    }
  }
  try {
    await Promise.all(Array.from({ length: options.connections }, client))
  } finally {
    await pool.close()
  }
}

export function emptyProgress(): SoakProgress {
  const counts = Object.fromEntries(SOAK_MIX.map(([operation]) => [operation, { sent: 0, ok: 0 }]))
  return { counts: counts as Record<SoakOperation, OperationCounts>, latenciesMs: [], firstFailure: null }
}
