// The purge bench's seed (bench/scenarios/purge.ts, docs/benchmarks.md): one model submission made
// through the API and cancelled, its rows cloned n times straight into the database with fresh ids,
// ended 40 days ago, each with a delivered webhook and 3 files. Seeding is not timed.
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readConfig } from '../src/config.ts'
import type { Tables } from '../src/db/tables.ts'
import { pendingDelivery } from '../src/webhooks/delivery-store.ts'
import { threeFieldSubmissionBody, threeFieldTemplateBody } from '../test/bulk-send-rows.ts'
import { a4 } from '../test/fixtures/pdfs.ts'
import { freePort } from './processes.ts'
import type { RunningServer } from './servers.ts'
import { jsonHeaders } from './submissions.ts'
import { openBenchDatabase } from './worker-runs.ts'

/** Live submissions (the GET loop's targets, never purged: not ended). */
export const LIVE = 100
const ENDED_DAYS_AGO = 40
const CHUNK = 100
export const ENDED = ['completed', 'declined', 'expired', 'cancelled'] as const

export async function call(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  status = 201,
) {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? { authorization: server.bearer ?? '' } : jsonHeaders(server)),
      ...(method === 'POST' && body ? { 'idempotency-key': randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status !== status)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as Record<string, unknown>
}

export interface Seeded {
  accountId: string
  environment: string
  liveIds: string[]
  /** The clones' ids, the ones the policy purges. */
  endedIds: string[]
  blobRoot: string
}

/** An id of `prefix` for clone `i` of model id number `k`: valid (24 base62), unique, recognisable. */
const cloneId = (prefix: string, k: number, i: number) =>
  `${prefix}_P${String(k).padStart(3, '0')}${String(i).padStart(20, '0')}`

/** Clone `i` of one model row: every model id and slug replaced, the employee's address and name its own. */
function cloneRow<T>(row: T, replacements: Array<[string, string]>, i: number): T {
  let text = JSON.stringify(row)
  for (const [from, to] of replacements) text = text.split(from).join(to)
  text = text
    .split('employee-0@example.eu')
    .join(`employee-${i}@example.eu`)
    .split('Employee 0')
    .join(`Employee ${i}`)
  return JSON.parse(text) as T
}

async function insertChunks<K extends keyof Tables>(
  db: ReturnType<typeof openBenchDatabase>['db'],
  table: K,
  rows: Tables[K][],
) {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + CHUNK) as never) // the table's own rows, read back from it and cloned
      .execute()
  }
}

/** Files of the same sizes as the finalizer's, written without fsync (seeding is not timed). */
export async function writeFolder(dir: string, pdf: Uint8Array, json: string) {
  await mkdir(dir, { recursive: true })
  await Promise.all([
    writeFile(join(dir, 'final-1.pdf'), pdf),
    writeFile(join(dir, 'audit-1.pdf'), pdf),
    writeFile(join(dir, 'audit-1.json'), json),
  ])
}

export async function seed(server: RunningServer, n: number): Promise<Seeded> {
  const pdf = await a4()
  const template = await call(
    server,
    'POST',
    '/v1/templates',
    threeFieldTemplateBody(Buffer.from(pdf).toString('base64')),
  )
  const templateId = String(template.id)
  const endpoint = await call(server, 'POST', '/v1/webhook_endpoints', {
    url: `http://127.0.0.1:${await freePort()}/hooks`,
    events: ['submission.created', 'submission.cancelled', 'submission.completed', 'submission.purged'],
  })
  const liveIds: string[] = []
  for (let i = 1; i <= LIVE; i++) {
    liveIds.push(
      String(
        (await call(server, 'POST', '/v1/submissions', threeFieldSubmissionBody(templateId, i, true))).id,
      ),
    )
  }
  const model = String(
    (await call(server, 'POST', '/v1/submissions', threeFieldSubmissionBody(templateId, 0, true))).id,
  )
  await call(server, 'DELETE', `/v1/submissions/${model}`, undefined, 200)

  const blobRoot = readConfig(server.env).storageUrl.replace(/^file:/, '')
  const database = openBenchDatabase(server.databaseUrl!)
  const { db } = database
  try {
    const submission = await db
      .selectFrom('submissions')
      .selectAll()
      .where('id', '=', model)
      .executeTakeFirstOrThrow()
    const submitters = await db
      .selectFrom('submitters')
      .selectAll()
      .where('submission_id', '=', model)
      .execute()
    const events = await db
      .selectFrom('events')
      .selectAll()
      .where('submission_id', '=', model)
      .orderBy('id')
      .execute()
    const jobs = await db.selectFrom('jobs').selectAll().where('submission_id', '=', model).execute()
    if (submitters.length !== 2 || events.length === 0 || jobs.length === 0)
      throw new Error(
        `the model has ${submitters.length} signers, ${events.length} events, ${jobs.length} jobs`,
      )
    const ended = new Date(Date.now() - ENDED_DAYS_AGO * 86_400_000)
    const at = (minutes: number) => new Date(ended.getTime() + minutes * 60_000).toISOString()
    const base = `${submission.account_id}/${submission.environment}/submissions`
    const auditJson = JSON.stringify({ submission, submitters, events }).padEnd(6_000, ' ')
    const endedIds: string[] = []
    for (let start = 0; start < n; start += 1000) {
      const batch = {
        submissions: [] as Tables['submissions'][],
        submitters: [] as Tables['submitters'][],
        events: [] as Tables['events'][],
        jobs: [] as Tables['jobs'][],
        deliveries: [] as Tables['webhook_deliveries'][],
        attempts: [] as Tables['webhook_attempts'][],
      }
      for (let i = start; i < Math.min(n, start + 1000); i++) {
        const id = cloneId('sub', 0, i)
        const replacements: Array<[string, string]> = [
          [model, id],
          ...submitters.flatMap(
            (s, k): Array<[string, string]> => [
              [s.id, cloneId('sbm', k, i)],
              [s.signing_slug, `p${k}${String(i).padStart(s.signing_slug.length - 2, '0')}`],
            ],
          ),
          ...events.map((e, k): [string, string] => [e.id, cloneId('evt', k, i)]),
          ...jobs.map((j, k): [string, string] => [j.id, cloneId('job', k, i)]),
        ]
        const status = ENDED[i % ENDED.length]!
        const key = (name: string) => `${base}/${id}/${name}`
        batch.submissions.push({
          ...cloneRow(submission, replacements, i),
          status,
          created_at: at(-7 * 24 * 60),
          updated_at: at(0),
          ended_at: at(0),
          ...(status === 'completed'
            ? {
                completed_at: at(0),
                final_pdf_key: key('final-1.pdf'),
                audit_pdf_key: key('audit-1.pdf'),
                audit_json_key: key('audit-1.json'),
              }
            : {}),
        })
        for (const s of submitters) batch.submitters.push(cloneRow(s, replacements, i))
        for (const e of events) batch.events.push({ ...cloneRow(e, replacements, i), created_at: at(0) })
        for (const j of jobs)
          batch.jobs.push({
            ...cloneRow(j, replacements, i),
            state: 'done',
            run_at: at(0),
            updated_at: at(0),
          })
        const event = batch.events[batch.events.length - events.length]!
        const delivery = {
          ...pendingDelivery(
            {
              id: cloneId('dlv', 0, i),
              account_id: submission.account_id,
              environment: submission.environment,
              endpoint_id: String(endpoint.id),
              event_id: event.id,
              event_type: event.type,
              event_created_at: event.created_at,
              body: JSON.stringify({
                id: event.id,
                type: event.type,
                created_at: event.created_at,
                data: JSON.parse(event.data),
              }),
            },
            at(0),
          ),
          state: 'delivered' as const,
          attempts: 1,
          last_status: 200,
          delivered_at: at(0),
        }
        batch.deliveries.push(delivery)
        batch.attempts.push({
          delivery_id: delivery.id,
          number: 1,
          endpoint_id: delivery.endpoint_id,
          started_at: at(0),
          duration_ms: 12,
          status: 200,
          error: null,
          succeeded: 1,
          response_body: `{"received":"${event.id}"}`,
        })
        endedIds.push(id)
      }
      await db.transaction().execute(async (tx) => {
        const txDb = tx as unknown as typeof db
        await insertChunks(txDb, 'submissions', batch.submissions)
        await insertChunks(txDb, 'submitters', batch.submitters)
        await insertChunks(txDb, 'events', batch.events)
        await insertChunks(txDb, 'jobs', batch.jobs)
        await insertChunks(txDb, 'webhook_deliveries', batch.deliveries)
        await insertChunks(txDb, 'webhook_attempts', batch.attempts)
      })
      for (let i = start; i < Math.min(n, start + 1000); i += 50) {
        await Promise.all(
          endedIds
            .slice(i, Math.min(n, i + 50))
            .map((id) => writeFolder(join(blobRoot, base, id), pdf, auditJson)),
        )
      }
    }
    return {
      accountId: submission.account_id,
      environment: submission.environment,
      liveIds,
      endedIds,
      blobRoot,
    }
  } finally {
    await database.close()
  }
}
