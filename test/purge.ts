// Test kit of docs/privacy.md: a completed submission full of values a purge must remove, a dump of
// every table, every byte of the blob store, and a search of both.
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { Tables } from '../src/db/tables.ts'
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { PURGE_INVENTORY } from '../src/privacy/purge-inventory.ts'
import { WebhookDispatcher } from '../src/webhooks/dispatcher.ts'
import type { TestApp } from './harness.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, signer } from './signing.ts'

/** Values of one person that appear nowhere else in the test's data. */
export function personOf(tag: string) {
  return {
    email: `philippa.${tag}@purge-test.example`,
    name: `Philippa Purgeworthy ${tag}`,
    fieldValue: `Quenelda Vantongeren ${tag}`,
    metadata: `case-zyx-${tag}`,
    userAgent: `PurgeTestBrowser/${tag}`,
    message: `Dear Philippa ${tag}, please sign.`,
  }
}
export type Person = ReturnType<typeof personOf>

/** A from_pdf submission for `person`, signed with their values and agent, finalized and its webhooks sent. */
export async function completedFor(t: TestApp, key: string, person: Person): Promise<string> {
  const body = await everyTypeBody(['first'], {
    send_email: true,
    metadata: { case: person.metadata },
    message: { subject: `Contract for ${person.name}`, body: person.message },
  })
  body.submitters = [{ role: 'first', email: person.email, name: person.name }]
  const created = await createSubmission(t, key, body)
  const submitter = created.submitters[0]!
  const headers = { 'user-agent': person.userAgent }
  assert.equal((await signer(t, submitter, 'open', undefined, 'link', headers)).statusCode, 200)
  const signed = await signer(
    t,
    submitter,
    'sign',
    { values: { ...FIRST_VALUES, Name: person.fieldValue } },
    'link',
    headers,
  )
  assert.equal(signed.statusCode, 200, signed.body)
  await work(t)
  return created.id
}

/** Runs the due jobs, then sends the due webhook deliveries. */
export async function work(t: TestApp): Promise<void> {
  await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  await new WebhookDispatcher(t.deps).drain()
}

/** Every row of every table (the inventory names them all), as one text. */
export async function dumpDatabase(t: TestApp): Promise<string> {
  const parts: string[] = []
  for (const table of Object.keys(PURGE_INVENTORY) as (keyof Tables)[]) {
    const rows = await sql`select * from ${sql.table(table)}`.execute(t.deps.db)
    parts.push(`${table}: ${JSON.stringify(rows.rows)}`)
  }
  return parts.join('\n')
}

/** Every file under `root` (relative path → bytes). */
export async function filesUnder(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(path.slice(root.length + 1), await readFile(path))
  }
  return files
}

/** The directory of the filesystem blob store of `t` (STORAGE_URL=file:…). */
export function blobRoot(t: TestApp): string {
  const url = t.config.storageUrl
  return url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length)
}

/** Which of `values` occur in `text` or in any of the files (as UTF-8 or as JSON-escaped text). */
export function found(values: Record<string, string>, text: string, files: Map<string, Buffer> = new Map()) {
  const hits: string[] = []
  for (const [what, value] of Object.entries(values)) {
    const needles = [value, JSON.stringify(value).slice(1, -1)]
    if (needles.some((n) => text.includes(n))) hits.push(`${what} in the database`)
    for (const [path, bytes] of files) {
      if (needles.some((n) => bytes.includes(n))) hits.push(`${what} in ${path}`)
    }
  }
  return hits
}
