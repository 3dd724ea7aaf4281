// The signature ledger: each kind of signature counted once, in the move's
// transaction; nothing else ever adds a row. Run once per engine.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { base64, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  SIGNATURE,
  signer,
  submissionRow,
} from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { expireDueSubmissions } from '../submissions/expire-submissions.ts'
import { finalizeSubmission } from '../submissions/finalize-submission.ts'
import { ledgerRow, recordSignatures } from './signature-ledger.ts'

const AREA = { page: 1, x: 0.1, y: 0.6, w: 0.35, h: 0.08 }

describe('signature ledger', () => {
  let t: TestApp
  let keys: { accountId: string; testKey: string; liveKey: string }
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })

  const rowsOf = (submissionId: string) =>
    t.deps.db
      .selectFrom('signatures')
      .selectAll()
      .where('submission_id', '=', submissionId)
      .orderBy('signed_at')
      .orderBy('submitter_id')
      .execute()
  const total = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('signatures')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const worker = () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })

  const preSignedBody = async () => ({
    documents: [
      {
        name: 'Offer',
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'Company signs', role: 'company', areas: [AREA] },
          { name: 'Client signs', role: 'client', areas: [{ ...AREA, y: 0.8 }] },
        ],
      },
    ],
    submitters: [
      {
        role: 'company',
        email: 'ceo@example.eu',
        completed: true,
        fields: [{ name: 'Company signs', readonly: true, default_value: SIGNATURE }],
      },
      { role: 'client', email: 'client@example.eu' },
    ],
  })

  describe('counts', () => {
    it('a signer signing: one `signed` row with the account, environment, submission and time of the move', async () => {
      const created = await createSubmission(t, keys.liveKey, await everyTypeBody(['first', 'second']))
      t.clock.advance(1000)
      const res = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      assert.equal(res.statusCode, 200, res.body)
      const [row, ...more] = await rowsOf(created.id)
      assert.equal(more.length, 0)
      assert.deepEqual(row, {
        id: `sig_${created.submitters[0]!.id.slice(4)}`,
        account_id: keys.accountId,
        environment: 'live',
        submitter_id: created.submitters[0]!.id,
        submission_id: created.id,
        kind: 'signed',
        signed_at: t.clock.now().toISOString(),
      })
    })

    it('the last signer of a completion counts once; finalization, its retries and re-reads add nothing', async () => {
      const created = await createSubmission(t, keys.testKey, await everyTypeBody(['first', 'second']))
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const last = await signer(t, created.submitters[1]!, 'sign', {
        values: { 'second signature': SIGNATURE },
      })
      assert.equal(last.statusCode, 200, last.body)
      assert.ok((await submissionRow(t, created.id)).all_signed_at)
      assert.deepEqual(
        (await rowsOf(created.id)).map((r) => [r.submitter_id, r.kind, r.environment]).sort(),
        created.submitters.map((s) => [s.id, 'signed', 'test']).sort(),
      )
      const before = await total()
      await worker()
      assert.equal((await submissionRow(t, created.id)).status, 'completed')
      await finalizeSubmission(t.deps, created.id, { attempt: 2 })
      await t.request(keys.testKey, { method: 'GET', url: `/v1/submissions/${created.id}` })
      await t.request(keys.testKey, { method: 'GET', url: `/v1/submitters/${created.submitters[1]!.id}` })
      await signer(t, created.submitters[1]!, 'form')
      assert.equal(await total(), before)
    })

    it('two signers signing at once: one row each', async () => {
      const created = await createSubmission(
        t,
        keys.testKey,
        await everyTypeBody(['first', 'second'], { signing_order: 'random' }),
      )
      const [a, b] = await Promise.all([
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        signer(t, created.submitters[1]!, 'sign', { values: { 'second signature': SIGNATURE } }),
      ])
      assert.deepEqual([a.statusCode, b.statusCode], [200, 200], `${a.body} ${b.body}`)
      assert.deepEqual(
        (await rowsOf(created.id)).map((r) => r.submitter_id).sort(),
        created.submitters.map((s) => s.id).sort(),
      )
    })

    it('one signer signing twice at once (link and embed): one 200, one 409, one row', async () => {
      const created = await createSubmission(t, keys.testKey, await everyTypeBody(['first']))
      const results = await Promise.all([
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }),
        signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES }, 'embed'),
      ])
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409])
      assert.equal((await rowsOf(created.id)).length, 1)
      const again = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      assert.equal(again.statusCode, 409)
      assert.equal((await rowsOf(created.id)).length, 1)
    })

    it('a pre-signed submitter: one `pre_signed` row at creation; the idempotent replay adds none', async () => {
      const body = await preSignedBody()
      const first = await post(t, keys.liveKey, '/v1/submissions/from_pdf', body, 'usage-replay-1')
      assert.equal(first.statusCode, 201, first.body)
      const id = first.json().id
      const replay = await post(t, keys.liveKey, '/v1/submissions/from_pdf', body, 'usage-replay-1')
      assert.equal(replay.headers['idempotent-replayed'], 'true')
      assert.equal(replay.json().id, id)
      const rows = await rowsOf(id)
      assert.deepEqual(
        rows.map((r) => [r.submitter_id, r.kind, r.signed_at]),
        [[first.json().submitters[0].id, 'pre_signed', first.json().created_at]],
      )
      const client = await signer(t, first.json().submitters[1], 'sign', {
        values: { 'Client signs': SIGNATURE },
      })
      assert.equal(client.statusCode, 200, client.body)
      assert.deepEqual((await rowsOf(id)).map((r) => r.kind).sort(), ['pre_signed', 'signed'])
    })
  })

  describe('the daily rollup', () => {
    /** The ledger counted per account, environment and day, and the rollup summed the same way. */
    const bothWays = async () => {
      const { db } = t.deps
      const day = sql<string>`substr(signed_at, 1, 10)`
      const ledger = await db
        .selectFrom('signatures')
        .select(['account_id', 'environment', day.as('day'), (eb) => eb.fn.countAll().as('n')])
        .groupBy(['account_id', 'environment', day])
        .execute()
      const rollup = await db
        .selectFrom('signature_days')
        .select(['account_id', 'environment', 'day', (eb) => eb.fn.sum('signatures').as('n')])
        .groupBy(['account_id', 'environment', 'day'])
        .execute()
      const text = (rows: Array<{ account_id: string; environment: string; day: string; n: unknown }>) =>
        rows.map((r) => `${r.account_id} ${r.environment} ${r.day} ${Number(r.n)}`).sort()
      return { ledger: text(ledger), rollup: text(rollup) }
    }

    it('adds what the ledger adds, in the same transaction, on the day of the move (UTC)', async () => {
      const created = await createSubmission(t, keys.liveKey, await everyTypeBody(['first', 'second']))
      // The first signs at 23:59:59.999 UTC, the second a millisecond later, on the next day.
      const now = t.clock.epochMs()
      t.clock.advance(Date.UTC(2026, 10, 23) - 1 - now)
      assert.equal(
        (await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })).statusCode,
        200,
      )
      t.clock.advance(1)
      const second = await signer(t, created.submitters[1]!, 'sign', {
        values: { 'second signature': SIGNATURE },
      })
      assert.equal(second.statusCode, 200, second.body)
      const days = await t.deps.db
        .selectFrom('signature_days')
        .select(['day', (eb) => eb.fn.sum('signatures').as('n')])
        .where('account_id', '=', keys.accountId)
        .where('environment', '=', 'live')
        .where('day', 'in', ['2026-11-22', '2026-11-23'])
        .groupBy('day')
        .orderBy('day')
        .execute()
      assert.equal(days.at(-1)?.day, '2026-11-23')
      assert.equal(Number(days.at(-1)?.n), 1)
      const { ledger, rollup } = await bothWays()
      assert.deepEqual(rollup, ledger)
    })

    it('20 signers of one account signing at once: each counted once, none refused', async () => {
      const created = await Promise.all(
        Array.from({ length: 20 }, async () =>
          createSubmission(t, keys.testKey, await everyTypeBody(['first'])),
        ),
      )
      const before = await bothWays()
      const results = await Promise.all(
        created.map((c) => signer(t, c.submitters[0]!, 'sign', { values: FIRST_VALUES })),
      )
      assert.deepEqual(
        results.map((r) => r.statusCode),
        results.map(() => 200),
        results.map((r) => r.body).join('\n'),
      )
      const after = await bothWays()
      assert.deepEqual(after.rollup, after.ledger)
      const today = t.clock.now().toISOString().slice(0, 10)
      const count = (rows: string[]) =>
        Number(rows.find((r) => r.startsWith(`${keys.accountId} test ${today} `))?.split(' ')[3] ?? 0)
      assert.equal(count(after.rollup) - count(before.rollup), 20)
    })

    it('a ledger row refused (a second one for a submitter) leaves the rollup as it was', async () => {
      const created = await createSubmission(t, keys.testKey, await everyTypeBody(['first']))
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const before = await bothWays()
      const submitter = await t.deps.db
        .selectFrom('submitters')
        .selectAll()
        .where('id', '=', created.submitters[0]!.id)
        .executeTakeFirstOrThrow()
      await assert.rejects(
        t.deps.db
          .transaction()
          .execute((tx) => recordSignatures(tx, [submitter], 'signed', t.clock.now().toISOString())),
      )
      assert.deepEqual(await bothWays(), before)
    })
  })

  describe('never counts', () => {
    it('a decline, a cancel and an expiry add no row; PATCH of a pending signer neither', async () => {
      const before = await total()
      const declined = await createSubmission(t, keys.testKey, await everyTypeBody(['first']))
      const decline = await signer(t, declined.submitters[0]!, 'decline', { reason: 'no' })
      assert.equal(decline.statusCode, 200, decline.body)
      const cancelled = await createSubmission(t, keys.testKey, await everyTypeBody(['first']))
      await signer(t, cancelled.submitters[0]!, 'open')
      const patch = await t.request(keys.testKey, {
        method: 'PATCH',
        url: `/v1/submitters/${cancelled.submitters[0]!.id}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Renamed' }),
      })
      assert.equal(patch.statusCode, 200, patch.body)
      const cancel = await t.request(keys.testKey, {
        method: 'DELETE',
        url: `/v1/submissions/${cancelled.id}`,
      })
      assert.equal(cancel.statusCode, 200, cancel.body)
      const expiring = await createSubmission(
        t,
        keys.testKey,
        await everyTypeBody(['first'], { expires_at: new Date(t.clock.epochMs() + 60_000).toISOString() }),
      )
      t.clock.advance(61_000)
      assert.ok((await expireDueSubmissions(t.deps)) >= 1)
      assert.equal((await submissionRow(t, expiring.id)).status, 'expired')
      assert.equal(await total(), before)
    })

    it('a second row for a submitter is refused by the unique key itself (not by a check)', async () => {
      const created = await createSubmission(t, keys.testKey, await everyTypeBody(['first']))
      await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
      const [row] = await rowsOf(created.id)
      await assert.rejects(
        t.deps.db
          .insertInto('signatures')
          .values({ ...row!, id: 'sig_another' })
          .execute(),
      )
      const submitter = { ...row!, id: row!.submitter_id }
      assert.equal(ledgerRow(submitter, 'signed', row!.signed_at).id, row!.id)
      assert.equal((await rowsOf(created.id)).length, 1)
    })
  })
})
