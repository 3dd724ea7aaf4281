// The hot routes' statements do not walk a table that grows. 20 000 submissions
// (with their submitters, events, ledger rows, jobs and internal templates) are written straight
// into the database and ANALYZEd; every statement the routes run is captured at the driver and its
// plan read from the engine (test/query-plans.ts): on PostgreSQL the rows each scan actually read,
// on SQLite an index covering each table's equality filters and no sort. The bench row at 1 M
// submissions (bench/scenarios/volume.ts) measures the cost; this test keeps the plans honest.
import assert from 'node:assert/strict'
import { after, before, describe, it, type TestContext } from 'node:test'
import { sql } from 'kysely'
import { SUBMISSION_STATUSES as STATUSES } from '../src/lifecycle/submission-moves.ts'
import { dueForPurge } from '../src/privacy/apply-retention.ts'
import { purgeSubmissions } from '../src/privacy/purge.ts'
import { fromPdfBody, post } from './documents.ts'
import { ENGINE, startTestApp, type TestApp } from './harness.ts'
import { type CapturedStatement, record } from './query-capture.ts'
import { checkPostgres, checkSqlite, type PlanVerdict, planned } from './query-plans.ts'
import { SIGNATURE, signer } from './signing.ts'
import { seededTemplateId, seedVolume } from './volume-seed.ts'

const SUBMISSIONS = 20_000
/** A page (21 rows) and its submitters, with room for an index's first misses. */
const MAX_ROWS_READ = 150
describe('query plans at volume', () => {
  let t: TestApp
  let key: string
  let accountId: string

  const get = (url: string) => t.request(key, { method: 'GET', url })
  const ok = async (url: string) => {
    const res = await get(url)
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
    return res.json()
  }
  /** Page 1 of `url`, then page 2 through its cursor. */
  const twoPages = async (url: string) => {
    const first = await ok(url)
    if (first.next_cursor) {
      await ok(`${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(first.next_cursor)}`)
    }
  }

  async function check(statements: CapturedStatement[]): Promise<PlanVerdict[]> {
    const out: PlanVerdict[] = []
    for (const statement of planned(statements)) {
      out.push(
        t.config.database.engine === 'postgres'
          ? await checkPostgres(t.config.database.url, statement, MAX_ROWS_READ)
          : checkSqlite(t.config.database.path, statement),
      )
    }
    return out
  }

  before(async () => {
    t = await startTestApp({ clockStart: new Date('2026-11-22T10:00:00.000Z') })
    const account = await t.account()
    key = account.testKey
    accountId = account.accountId
    await seedVolume(t.deps.db, ENGINE, {
      accountId: account.accountId,
      submissions: SUBMISSIONS,
      now: t.clock.now(),
      batch: 10_000,
    })
    await seedGroups(t, account.accountId)
  })
  after(() => t.close())

  it('creating a submission (from_pdf, with an Idempotency-Key) reads no growing table through', async (c) => {
    const body = await fromPdfBody()
    const statements = await record(async () => {
      const res = await post(t, key, '/v1/submissions/from_pdf', body)
      assert.equal(res.statusCode, 201, res.body)
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })

  it('GET /v1/submissions/{id}, the signer opening and signing, and GET /v1/usage stay bounded', async (c) => {
    const created = (await post(t, key, '/v1/submissions/from_pdf', await fromPdfBody())).json()
    const [submitter] = created.submitters
    const statements = await record(async () => {
      await ok(`/v1/submissions/${created.id}`)
      assert.equal((await signer(t, submitter, 'open')).statusCode, 200)
      const signed = await signer(t, submitter, 'sign', { values: { Signature: SIGNATURE } })
      assert.equal(signed.statusCode, 200, signed.body)
      await ok('/v1/usage')
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })

  it('GET /v1/submissions: unfiltered, by each status and by template, two pages each', async (c) => {
    const statements = await record(async () => {
      await twoPages('/v1/submissions')
      for (const status of STATUSES) await twoPages(`/v1/submissions?status=${status}`)
      await twoPages(`/v1/submissions?template_id=${seededTemplateId(3)}`)
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })

  it('GET /v1/events: unfiltered, by a common and a rare type, by submission, two pages each', async (c) => {
    const statements = await record(async () => {
      await twoPages('/v1/events')
      await twoPages('/v1/events?type=submission.sent')
      await twoPages('/v1/events?type=submission.expired')
      await twoPages(`/v1/events?submission_id=sub_v${'1'.padStart(23, '0')}`)
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })

  it('GET /v1/templates skips the internal templates of from_pdf submissions through an index', async (c) => {
    const statements = await record(async () => {
      await twoPages('/v1/templates')
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })

  it('GET /v1/submitters: unfiltered, by status, by submission and by email, two pages each', async (c) => {
    const statements = await record(async () => {
      await twoPages('/v1/submitters')
      await twoPages('/v1/submitters?status=declined')
      await twoPages(`/v1/submitters?submission_id=sub_v${'3'.padStart(23, '0')}`)
      await twoPages('/v1/submitters?email=signer42@example.eu')
      // docs/api.md#signer-groups: a member of thousands of groups, found through the members' index.
      await twoPages(`/v1/submitters?email=${DIRECTOR}`)
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })
  it('the retention policy, a purge, an erasure, a legal hold and a verification stay bounded (docs/privacy.md)', async (c) => {
    // The seed predates ended_at: the ended submissions end an hour after they began, as migration
    // 0027's backfill would say.
    await sql`update submissions set ended_at = coalesce(completed_at, declined_at, cancelled_at, updated_at)
      where status in ('completed', 'declined', 'expired', 'cancelled')`.execute(t.deps.db)
    await sql`analyze submissions`.execute(t.deps.db)
    const scope = { accountId, environment: 'test' as const }
    const statements = await record(async () => {
      const due = await dueForPurge(
        t.deps.db,
        scope,
        { delete_after_days: 1, applies_to: ['cancelled', 'declined'] },
        t.clock.now(),
        50,
      )
      assert.equal(due.length, 50)
      const purged = await t.request(key, { method: 'POST', url: `/v1/submissions/${due[0]!.id}/purge` })
      assert.equal(purged.statusCode, 200, purged.body)
      // The policy's batch: each statement for all of them (purge-store.ts).
      const batch = await purgeSubmissions(
        t.deps,
        scope,
        due.slice(2, 22).map((d) => d.id),
        'policy',
      )
      assert.deepEqual(new Set(batch.map((b) => b.outcome)), new Set(['purged']))
      const hold = await t.request(key, {
        method: 'POST',
        url: '/v1/legal_holds',
        payload: { submission_ids: [due[1]!.id], reason: 'Plans' },
      })
      assert.equal(hold.statusCode, 201, hold.body)
      await twoPages(`/v1/legal_holds?submission_id=${due[1]!.id}`)
      const erasure = await post(t, key, '/v1/privacy/erasures', { email: 'signer42@example.eu' })
      assert.equal(erasure.statusCode, 202, erasure.body)
      const verified = await t.request(key, {
        method: 'POST',
        url: '/v1/verify',
        headers: { 'content-type': 'application/pdf' },
        payload: Buffer.from('%PDF-1.7\n% not sealed\n%%EOF\n'),
      })
      assert.equal(verified.statusCode, 200, verified.body)
    })
    const verdicts = await check(statements)
    assertBounded(c, verdicts)
  })
})

const DIRECTOR = 'director@example.eu'

/**
 * Every first signer of the measured account's test environment made a signer group whose member
 * is one director (thousands of groups), then the statistics read again as the seed's were.
 */
async function seedGroups(t: TestApp, accountId: string): Promise<void> {
  await sql`
    insert into group_members (id, submitter_id, submission_id, account_id, environment, position, email,
      email_key, name, status, signing_slug, submitter_created_at, created_at, updated_at)
    select 'grm_' || substr(id, 5), id, submission_id, account_id, environment, 0, ${DIRECTOR}, ${DIRECTOR},
      null, 'pending', 'g' || substr(id, 5), created_at, created_at, created_at
    from submitters where account_id = ${accountId} and environment = 'test' and position = 0`.execute(
    t.deps.db,
  )
  await sql`update submitters set grouped = 1 where account_id = ${accountId} and environment = 'test' and position = 0`.execute(
    t.deps.db,
  )
  await sql`analyze`.execute(t.deps.db)
}

/** PARAPH_SHOW_PLANS=1 prints every plan read, bounded or not. */
function assertBounded(c: TestContext, verdicts: PlanVerdict[]): void {
  assert.ok(verdicts.length > 0, 'no statement on a growing table was captured')
  const bad = verdicts.filter((v) => v.problems.length)
  if (process.env.PARAPH_SHOW_PLANS) {
    for (const v of verdicts) c.diagnostic(`${v.sql}\n${v.plan}\n${v.problems.join('\n')}`)
  }
  assert.deepEqual(
    bad.map((v) => `${v.sql}\n${v.plan}\n→ ${v.problems.join('; ')}`),
    [],
  )
}
