// The requests of the volume scenario, each prepared on one server and then sent
// many times: the reads of the API with each filter the spec allows
// (docs/api.md#lists-and-filters), the signer's POST, and a creation. A case prepares what its
// requests need on each server (a submission to read, submissions to sign, a cursor) after the
// volume is written.
import { randomUUID } from 'node:crypto'
import { SUBMISSION_STATUSES as STATUSES } from '../src/lifecycle/submission-moves.ts'
import { a4 } from '../test/fixtures/pdfs.ts'
import { seededTemplateId } from '../test/volume-seed.ts'
import type { RunningServer } from './servers.ts'
import { createToSign, sign, signBody, signingBody, type ToSign } from './signing.ts'
import { createSubmission, FROM_PDF_PATH, inline, jsonHeaders } from './submissions.ts'
import type { Pacing, Send } from './volume-measure.ts'

export interface VolumeCase {
  name: string
  pacing?: Pacing
  /** What the case sends to `server`; prepared once per server. */
  prepare(server: RunningServer): Promise<Send>
}

async function getJson(server: RunningServer, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    headers: { authorization: server.bearer! },
  })
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as Record<string, unknown>
}

/**
 * A GET of a fixed path. A list must serve a full page on both databases (so both do the same
 * work), unless `fullPage` is false: the events of one submission are a few on either.
 */
function get(name: string, path: (server: RunningServer) => Promise<string>, fullPage = true): VolumeCase {
  return {
    name,
    async prepare(server) {
      const url = await path(server)
      const first = await getJson(server, url)
      if (fullPage && Array.isArray(first.data) && first.data.length !== 20) {
        throw new Error(`${name}: ${first.data.length} rows on a page, not 20: is the small seed too small?`)
      }
      return async (s) => void (await getJson(s, url))
    },
  }
}

const fixed = (path: string) => get(`GET ${path}`, async () => path)

/** The second page of a list: its cursor read from the first page on each server. */
const secondPage = (path: string) =>
  get(`GET ${path} (page 2)`, async (server) => {
    const cursor = (await getJson(server, path)).next_cursor as string
    return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`
  })

const SIGN_PACING: Pacing = { blocks: 4, perBlock: 30 }
// Creation costs ~10 CPU ticks a request: 60 per side read from 40 to 215 % on PostgreSQL (issue
// #24 notes); 200 per side in longer blocks average the tick out.
const CREATE_PACING: Pacing = { blocks: 10, perBlock: 20 }

export const VOLUME_CASES: VolumeCase[] = [
  get(
    'GET /v1/submissions/{id}',
    async (server) => `/v1/submissions/${await createSubmission(server, inline(await a4()))}`,
  ),
  fixed('/v1/submissions'),
  secondPage('/v1/submissions'),
  ...STATUSES.map((status) => fixed(`/v1/submissions?status=${status}`)),
  secondPage('/v1/submissions?status=declined'),
  fixed(`/v1/submissions?template_id=${seededTemplateId(3)}`),
  fixed('/v1/events'),
  fixed('/v1/events?type=submission.sent'),
  fixed('/v1/events?type=submission.expired'),
  get(
    'GET /v1/events?submission_id=…',
    async (server) => `/v1/events?submission_id=${await createSubmission(server, inline(await a4()))}`,
    false,
  ),
  fixed('/v1/usage'),
  // 17 listed templates beside an internal one per from_pdf submission (half of them).
  get('GET /v1/templates', async () => '/v1/templates', false),
  {
    name: 'POST /s/{slug}/sign (3 signers in turn)',
    pacing: SIGN_PACING,
    async prepare(server) {
      const source = inline(await a4())
      const count = ((SIGN_PACING.blocks + 1) * SIGN_PACING.perBlock) / 3
      const toSign: ToSign[] = []
      for (let i = 0; i < count; i++) toSign.push(await createToSign(server, source))
      const bodies = [0, 1, 2].map(signBody)
      return async (s, i) => void (await sign(s, toSign[Math.floor(i / 3)]!.slugs[i % 3]!, bodies[i % 3]!))
    },
  },
  {
    name: 'POST /v1/submissions/from_pdf (3 signers)',
    pacing: CREATE_PACING,
    async prepare() {
      const body = JSON.stringify(signingBody(inline(await a4())))
      return async (server) => {
        const response = await fetch(`${server.process.baseUrl}${FROM_PDF_PATH}`, {
          method: 'POST',
          headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
          body,
        })
        const text = await response.text()
        if (response.status !== 201)
          throw new Error(`from_pdf answered ${response.status}: ${text.slice(0, 200)}`)
      }
    },
  },
]
