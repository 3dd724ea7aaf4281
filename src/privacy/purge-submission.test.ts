// POST /v1/submissions/{id}/purge (docs/privacy.md#purge): after a purge, a dump of every table and
// every byte of the blob store hold none of the signer's values; the document routes answer 410.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { ENGINE, startTestApp, type TestApp } from '../../test/harness.ts'
import {
  blobRoot,
  completedFor,
  dumpDatabase,
  filesUnder,
  found,
  type Person,
  personOf,
  work,
} from '../../test/purge.ts'
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../../test/s3-server.ts'
import { createSubmission, everyTypeBody, refused, submissionRow } from '../../test/signing.ts'
import * as purgedValues from '../db/migrations/0028-purged-values.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

const searched = (p: Person) => ({
  email: p.email,
  name: p.name,
  'field value': p.fieldValue,
  metadata: p.metadata,
  'user agent': p.userAgent,
  message: p.message,
})

/** The whole path on one store: fill, check the values are there, purge, check they are gone. */
function wholeDumpSearch(store: 'file' | 's3') {
  let t: TestApp
  let key: string
  let receiver: WebhookReceiver
  let s3: TestS3Server | undefined
  let blobDirectory: () => string
  before(async () => {
    receiver = await WebhookReceiver.start()
    if (store === 's3') {
      s3 = await startS3Server()
      process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId
      process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey
    }
    t = await startTestApp({
      env: { ALLOW_PRIVATE_NETWORK_URLS: 'true', ...(s3 ? { STORAGE_URL: s3.url } : {}) },
      ...(s3 ? { clockStart: new Date() } : {}),
    })
    blobDirectory = () => (s3 ? s3.directory : blobRoot(t))
    key = (await t.account()).testKey
    const hook = await t.request(key, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: {
        url: receiver.url(),
        events: ['submission.created', 'submission.completed', 'submission.purged'],
      },
    })
    assert.equal(hook.statusCode, 201, hook.body)
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
    await receiver.close()
    await s3?.close()
  })

  it('finds none of the signer’s values in any table or stored file afterwards, and answers 410 for the documents', async () => {
    const person = personOf(`${store}${ENGINE}1`)
    const id = await completedFor(t, key, person)
    const documents = (await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` })).json()
    assert.ok(documents.signed_pdf_url, 'completed, with a final PDF')
    // A client's mistake that puts the address in a path: refused, and the request log keeps the path.
    const mistaken = await t.request(key, { method: 'GET', url: `/v1/submissions/${person.email}` })
    assert.equal(mistaken.statusCode, 400, mistaken.body)
    await t.deps.requestLogs.flush()
    const logLine = (dump: string) =>
      dump.split('\n').find((line) => line.startsWith('request_log_batches:'))!
    assert.ok(logLine(await dumpDatabase(t)).includes(person.email), 'the request log names the address')
    // The test can fail: before the purge, every value is somewhere.
    const beforeHits = found(searched(person), await dumpDatabase(t), await filesUnder(blobDirectory()))
    for (const what of Object.keys(searched(person))) {
      assert.ok(
        beforeHits.some((h) => h.startsWith(`${what} in`)),
        `${what} is stored before the purge: ${beforeHits}`,
      )
    }
    assert.ok(
      beforeHits.some((h) => h.startsWith('email in ') && !h.endsWith('database')),
      'the audit JSON names the signer',
    )
    const sha256 = (await submissionRow(t, id))!.final_pdf_sha256

    const purged = await t.request(key, { method: 'POST', url: `/v1/submissions/${id}/purge` })
    assert.equal(purged.statusCode, 200, purged.body)
    await work(t)

    const hits = found(searched(person), await dumpDatabase(t), await filesUnder(blobDirectory()))
    assert.deepEqual(hits, [], 'nothing of the person is left')
    const files = [...(await filesUnder(blobDirectory())).keys()]
    assert.deepEqual(
      files.filter((f) => f.includes(id)),
      [],
      'no file of the submission is left',
    )

    const row = (await submissionRow(t, id))!
    assert.equal(row.final_pdf_sha256, sha256, 'the hash of the final stays')
    assert.ok(row.audit_pdf_sha256)
    assert.equal(row.status, 'completed')

    const body = purged.json()
    assert.equal(body.purged_at, row.purged_at)
    assert.equal(body.metadata, null)
    assert.equal(body.submitters[0].email, null)
    assert.equal(body.submitters[0].name, null)
    assert.equal(body.submitters[0].metadata, null)
    assert.deepEqual(body.fields, [])
    assert.equal(body.status, 'completed')
    const signer = (
      await t.request(key, { method: 'GET', url: `/v1/submitters/${body.submitters[0].id}` })
    ).json()
    assert.equal(signer.values, null, 'a purged signer’s values are null, not "nothing filled"')
    assert.equal(signer.email, null)
    assert.ok(body.completed_at)

    refused(
      await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` }),
      410,
      'submission_purged',
    )
    refused(
      await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/audit_log` }),
      410,
      'submission_purged',
    )
    if (store === 'file') {
      // A URL handed out before the purge: Paraph serves the file store's files itself.
      const url = new URL(documents.signed_pdf_url)
      refused(await t.app.inject({ method: 'GET', url: url.pathname }), 410, 'submission_purged')
    } else {
      assert.equal((await fetch(documents.signed_pdf_url)).status, 404, 'the bucket no longer has it')
    }

    // The journal keeps the event types; the webhook went out with the purged snapshot.
    const events = (await t.request(key, { method: 'GET', url: `/v1/events?submission_id=${id}` })).json()
    const types = events.data.map((e: { type: string }) => e.type)
    assert.ok(types.includes('submission.completed') && types.includes('submission.purged'), String(types))
    const webhook = receiver.received.find((r) => JSON.parse(r.body).type === 'submission.purged')
    assert.ok(webhook, 'submission.purged delivered')
    assert.equal(JSON.parse(webhook.body).data.object.submitters[0].email, null)
  })

  if (store === 'file' && ENGINE === 'sqlite') {
    it('leaves none of the values in the SQLite file either (secure_delete)', async () => {
      const person = personOf('sqlitefile')
      const id = await completedFor(t, key, person)
      assert.equal(
        (await t.request(key, { method: 'POST', url: `/v1/submissions/${id}/purge` })).statusCode,
        200,
      )
      await work(t)
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.db)
      assert.equal(t.config.database.engine, 'sqlite')
      const bytes = await readFile(t.config.database.engine === 'sqlite' ? t.config.database.path : '')
      const left = Object.entries(searched(person)).filter(([, v]) => bytes.includes(v))
      assert.deepEqual(left, [])
    })
  }
}

describe('purge: whole-dump search, filesystem store', () => wholeDumpSearch('file'))
describe('purge: whole-dump search, S3 store', () => wholeDumpSearch('s3'))

describe('purge: who may, when', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })

  it('refuses an active submission with 409 submission_not_finalized, and purges it once cancelled', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const purge = () => t.request(key, { method: 'POST', url: `/v1/submissions/${created.id}/purge` })
    refused(await purge(), 409, 'submission_not_finalized', /only an ended submission/)
    assert.equal(
      (await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })).statusCode,
      200,
    )
    const first = await purge()
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(first.json().status, 'cancelled')
    const again = await purge()
    assert.equal(again.statusCode, 200)
    assert.equal(again.json().purged_at, first.json().purged_at, 'a second purge changes nothing')
    const purgedEvents = await t.deps.db
      .selectFrom('events')
      .select('id')
      .where('submission_id', '=', created.id)
      .where('type', '=', 'submission.purged')
      .execute()
    assert.equal(purgedEvents.length, 1, 'journaled once')
  })

  it('migration 0028: signers purged under 0027 (values `{}`) answer null; other signers keep theirs', async () => {
    const purged = await createSubmission(t, key, await everyTypeBody(['first']))
    const kept = await createSubmission(t, key, await everyTypeBody(['first']))
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${purged.id}` })
    const answer = await t.request(key, { method: 'POST', url: `/v1/submissions/${purged.id}/purge` })
    assert.equal(answer.statusCode, 200, answer.body)
    const values = async (id: string) =>
      (await t.request(key, { method: 'GET', url: `/v1/submitters/${id}` })).json().values
    assert.equal(await values(purged.submitters[0]!.id), null)
    await t.deps.db
      .updateTable('submitters')
      .set({ values: '{}' })
      .where('submission_id', '=', purged.id)
      .execute()
    await t.deps.db
      .updateTable('submitters')
      .set({ values: JSON.stringify({ Name: 'kept' }) })
      .where('submission_id', '=', kept.id)
      .execute()
    assert.deepEqual(await values(purged.submitters[0]!.id), {}, 'as 0027 left it')
    await purgedValues.up(t.deps.db as never)
    assert.equal(await values(purged.submitters[0]!.id), null)
    assert.deepEqual(await values(kept.submitters[0]!.id), { Name: 'kept' })
  })

  it('answers 404 for another account’s submission and purges nothing', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${created.id}` })
    const other = (await t.account('Other')).testKey
    refused(
      await t.request(other, { method: 'POST', url: `/v1/submissions/${created.id}/purge` }),
      404,
      'resource_not_found',
    )
    assert.equal((await submissionRow(t, created.id))!.purged_at, null)
  })

  it('refuses a submission whose final PDF is being made', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    await t.deps.db
      .updateTable('submissions')
      .set({ all_signed_at: '2026-11-22T10:00:00.000Z' })
      .where('id', '=', created.id)
      .execute()
    refused(
      await t.request(key, { method: 'POST', url: `/v1/submissions/${created.id}/purge` }),
      409,
      'submission_not_finalized',
      /being made/,
    )
  })
})
