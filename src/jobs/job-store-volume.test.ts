// Scheduled jobs by the hundred thousand (reminders) must cost the claim nothing: its statements read
// the same index path, and on PostgreSQL the same handful of rows, with 100 000 jobs due later as
// without them. The plans are read from the engine (test/query-plans.ts); the times are measured and
// printed, not asserted (a shared machine's wall clock would make them flaky).
import assert from 'node:assert/strict'
import { performance } from 'node:perf_hooks'
import { after, before, describe, it, type TestContext } from 'node:test'
import { sql } from 'kysely'
import { ENGINE, startTestApp, type TestApp } from '../../test/harness.ts'
import { record } from '../../test/query-capture.ts'
import { checkPostgres, checkSqlite, type PlanVerdict, planned } from '../../test/query-plans.ts'
import type { Db } from '../db/tables.ts'
import { toIso } from '../lib/clock.ts'
import { claimJob, completeJob } from './job-store.ts'

const FUTURE_JOBS = 100_000
/** The claim stops at its first row; a few more for the rows a skipped lock or a lapsed lease adds. */
const MAX_ROWS_READ = 5

/** `count` jobs in `state` due at `runAt`, in one INSERT … SELECT over a series. */
async function bulkInsert(db: Db, prefix: string, count: number, state: string, runAt: Date, now: Date) {
  const series =
    ENGINE === 'postgres'
      ? `generate_series(1, ${count}) as n(i)`
      : `(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count}) select i from s) as n`
  const id = ENGINE === 'postgres' ? `lpad(n.i::text, 10, '0')` : `printf('%010d', n.i)`
  await sql
    .raw(
      `insert into jobs (id, kind, payload, state, attempt, max_attempts, run_at, locked_until, last_error, created_at, updated_at)
       select 'job_${prefix}' || ${id}, 'reminder', '{}', '${state}', 0, 1, '${toIso(runAt)}', null, null,
         '${toIso(now)}', '${toIso(now)}'
       from ${series}`,
    )
    .execute(db)
}

describe('the claim with 100 000 jobs scheduled for later', () => {
  let t: TestApp

  const analyze = () => sql.raw(ENGINE === 'postgres' ? 'analyze jobs' : 'analyze').execute(t.deps.db)
  const claim = () => claimJob(t.deps.db, t.deps.engine, t.clock, 60_000)

  /** The plans of the claim's statements, taken while claiming (and completing) one due job. */
  async function claimPlans(): Promise<PlanVerdict[]> {
    const statements = await record(async () => {
      const job = await claim()
      assert.ok(job, 'a due job is claimed')
      await completeJob(t.deps.db, t.clock, job)
    })
    // SQLite: the lapsed-lease and the due-pending SELECTs in a transaction; PostgreSQL: one
    // statement holding both reads (claimOnPostgres).
    const selects = planned(statements).filter(({ sql }) => /^\s*(select|with)\b/i.test(sql))
    assert.equal(
      selects.length,
      ENGINE === 'postgres' ? 1 : 2,
      ENGINE === 'postgres' ? 'the one claim statement' : 'the lapsed-lease and the due-pending statements',
    )
    const verdicts: PlanVerdict[] = []
    const { database } = t.config
    for (const statement of selects) {
      verdicts.push(
        database.engine === 'postgres'
          ? await checkPostgres(database.url, statement, MAX_ROWS_READ)
          : checkSqlite(database.path, statement),
      )
    }
    return verdicts
  }

  /** The median time of 50 claims, each taking a due job (then completed), in milliseconds. */
  async function claimMs(): Promise<number> {
    const times: number[] = []
    for (let i = 0; i < 50; i++) {
      const started = performance.now()
      const job = await claim()
      times.push(performance.now() - started)
      assert.ok(job)
      await completeJob(t.deps.db, t.clock, job)
    }
    return times.sort((a, b) => a - b)[25]!
  }

  const shape = (plan: string) => plan.replace(/\(read \d+\)/g, '')

  /**
   * Each statement searched through an index, never a scan of the table. On PostgreSQL no node read
   * more than MAX_ROWS_READ rows: the planner may take the running jobs from jobs_due and sort them
   * (a handful: one per busy worker) rather than read jobs_lease in order, which it prefers once
   * there are more. SQLite, which has no row counts to show, must use the index that stops at the
   * first row without sorting.
   */
  function assertIndexed(c: TestContext, verdicts: PlanVerdict[]) {
    for (const verdict of verdicts) {
      c.diagnostic(`${verdict.sql}\n${verdict.plan}`)
      assert.deepEqual(verdict.problems, [], `${verdict.sql}\n${verdict.plan}`)
      assert.doesNotMatch(verdict.plan, /\bSeq Scan\b|^SCAN\b|TEMP B-TREE/m, verdict.plan)
    }
    if (ENGINE === 'postgres') {
      assert.match(verdicts[0]!.plan, /Index Scan on jobs using jobs_due/)
      return
    }
    const [lease, pending] = verdicts.map((v) => v.plan)
    assert.match(pending!, /SEARCH jobs USING INDEX jobs_due \(state=\? AND run_at<\?\)/)
    assert.match(lease!, /SEARCH jobs USING INDEX jobs_lease \(locked_until<\?\)/)
  }

  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('reads the same index path, as few rows, before and after', async (c) => {
    const now = t.clock.now()
    // A worked queue: 20 000 jobs done, 200 due now (each claim below takes one and keeps it running).
    await bulkInsert(t.deps.db, 'done', 20_000, 'done', new Date(now.getTime() - 86_400_000), now)
    await bulkInsert(t.deps.db, 'due', 200, 'pending', new Date(now.getTime() - 1000), now)
    await analyze()
    const without = await claimPlans()
    const withoutMs = await claimMs()
    assertIndexed(c, without)

    // Reminders over the next 30 days, all but the due ones out of the claim's reach.
    const later = new Date(now.getTime() + 30 * 86_400_000)
    await bulkInsert(t.deps.db, 'later', FUTURE_JOBS, 'pending', later, now)
    await analyze()
    const withFuture = await claimPlans()
    const withMs = await claimMs()
    assertIndexed(c, withFuture)

    // The due-pending statement, which the future rows could slow, keeps its path on SQLite. On
    // PostgreSQL the lease read may switch between its two indexed plans (see assertIndexed) as the
    // statistics move, inside the one statement: both read no row here, and the statement's rows
    // read are held to MAX_ROWS_READ by assertIndexed.
    if (ENGINE === 'sqlite')
      assert.deepEqual(
        withFuture.map((v) => shape(v.plan)),
        without.map((v) => shape(v.plan)),
      )
    c.diagnostic(
      `${ENGINE}: a claim took ${withoutMs.toFixed(3)} ms (median of 50) without, ${withMs.toFixed(3)} ms with ${FUTURE_JOBS} future jobs`,
    )
  })
})
