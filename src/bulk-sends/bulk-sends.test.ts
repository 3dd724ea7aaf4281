// Bulk send through the real app (docs/api.md#bulk-send): the check of every row (JSON and CSV),
// the job run by the worker's code, its rows and counts, the submissions it made and their filter,
// cancel, the event, and each row made once when two runs race.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { bulkRow, bulkTemplate, runJobs } from '../../test/bulk.ts'
import { post } from '../../test/documents.ts'
import { startTestApp, type TestApp, whatHappened } from '../../test/harness.ts'
import { runBulkSend } from './run-bulk-send.ts'

describe('bulk send (docs/api.md#bulk-send)', () => {
  let t: TestApp
  let key: string
  let templateId: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    templateId = await bulkTemplate(t, key)
  })
  after(() => t.close())

  const get = async (url: string) => {
    const res = await t.request(key, { method: 'GET', url })
    assert.equal(res.statusCode, 200, whatHappened(t, res))
    return res.json()
  }
  const count = async (table: 'submissions' | 'bulk_sends' | 'bulk_send_rows') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const csvPost = (csv: string, query: string) =>
    t.request(key, {
      method: 'POST',
      url: `/v1/bulk_sends?template_id=${templateId}${query}`,
      headers: { 'content-type': 'text/csv', 'idempotency-key': crypto.randomUUID() },
      payload: csv,
    })

  describe('the check', () => {
    it('dry run: every problem of every row with its row and column, nothing created', async () => {
      const before = [await count('submissions'), await count('bulk_sends')]
      const good = bulkRow(1)
      const res = await post(t, key, '/v1/bulk_sends', {
        template_id: templateId,
        dry_run: true,
        rows: [
          good,
          {
            submitters: [
              { role: 'Employee', email: 'not an address' },
              { role: 'Boss', email: 'boss@example.eu' },
            ],
            values: { Salary: 'much', Office: 'Nice', 'Contract ref': 'C-2', Bonus: 3 },
            external_id: 'emp-1',
          },
          { submitters: [{ role: 'Employee', email: 'e3@example.eu' }], values: {} },
        ],
      })
      assert.equal(res.statusCode, 200, whatHappened(t, res))
      const check = res.json()
      assert.equal(check.object, 'bulk_send_check')
      assert.equal(check.rows, 3)
      const seen = check.errors.map((e: { row: number; column: string; code: string }) => [
        e.row,
        e.column,
        e.code,
      ])
      assert.deepEqual(seen, [
        [2, 'submitters[0].email', 'invalid_request'],
        [2, 'submitters[1].role', 'submitter_role_not_in_template'],
        [2, 'submitters', 'invalid_request'],
        [2, 'values.Salary', 'invalid_field_value'],
        [2, 'values.Office', 'invalid_field_value'],
        [2, 'values.Bonus', 'invalid_request'],
        [2, 'external_id', 'invalid_request'],
        [3, 'submitters', 'invalid_request'],
        [3, 'values.Contract ref', 'missing_required_fields'],
      ])
      const messages = check.errors.map((e: { message: string }) => e.message).join('\n')
      assert.match(messages, /"Boss" is not a role of the template \(roles: "Employee", "Manager"\)/)
      assert.match(messages, /no signer for the role "Manager"/)
      assert.match(messages, /must be one of "Lyon", "Paris, 9e"/)
      assert.match(messages, /"emp-1" is also the external_id of row 1/)
      assert.deepEqual([await count('submissions'), await count('bulk_sends')], before)
    })

    it('CSV: BOM, CRLF, quoted commas, quotes and line breaks read as RFC 4180 says; cells read by field type', async () => {
      const csv =
        '\uFEFFEmployee.email,Employee.name,Manager.email,field:Salary,field:Start date,field:Handbook read,field:Contract ref,field:Office,external_id,metadata.team\r\n' +
        'ann@example.eu,"Martin, Ann",lea@example.eu;tom@example.eu,52000.5,2027-01-04,YES,"C-""1""","Paris, 9e",emp-a,"ops\r\nnight"\r\n' +
        'bob@example.eu,Bob,lea@example.eu,abc,04/01/2027,maybe,C-2,Lyon,emp-b,\r\n'
      const checked = await csvPost(csv, '&dry_run=true')
      assert.equal(checked.statusCode, 200, whatHappened(t, checked))
      assert.deepEqual(
        checked.json().errors.map((e: { row: number; column: string }) => [e.row, e.column]),
        [
          [2, 'field:Salary'],
          [2, 'field:Start date'],
          [2, 'field:Handbook read'],
        ],
      )
      const res = await csvPost(csv, '&send_email=false')
      assert.equal(res.statusCode, 202, whatHappened(t, res))
      const job = res.json()
      assert.deepEqual(job.counts, { total: 2, created: 0, failed: 1, cancelled: 0, pending: 1 })
      await runJobs(t)
      const rows = await get(`/v1/bulk_sends/${job.id}/rows`)
      assert.deepEqual(
        rows.data.map((r: { row: number; status: string; external_id: string }) => [
          r.row,
          r.status,
          r.external_id,
        ]),
        [
          [1, 'created', 'emp-a'],
          [2, 'failed', 'emp-b'],
        ],
      )
      const submission = await get(`/v1/submissions/${rows.data[0].submission_id}`)
      assert.equal(submission.bulk_send_id, job.id)
      assert.deepEqual(submission.metadata, { team: 'ops\r\nnight' })
      const [employee, manager] = submission.submitters
      assert.equal(employee.name, 'Martin, Ann')
      assert.deepEqual(
        manager.members.map((m: { email: string }) => m.email),
        ['lea@example.eu', 'tom@example.eu'],
      )
      const values = (await get(`/v1/submitters/${employee.id}`)).values
      assert.deepEqual(values, {
        Salary: 52000.5,
        'Start date': '2027-01-04',
        'Handbook read': true,
        'Contract ref': 'C-"1"',
      })
      assert.deepEqual((await get(`/v1/submitters/${manager.id}`)).values, { Office: 'Paris, 9e' })
    })

    it("a header that names no role or field of the template is the request's error, naming the column", async () => {
      const unknown = await csvPost(
        'Employee.email,Manager.email,Email\r\na@example.eu,b@example.eu,x\r\n',
        '',
      )
      assert.equal(unknown.statusCode, 422)
      assert.equal(unknown.json().error.param, 'csv')
      assert.match(unknown.json().error.message, /unknown column "Email"; columns are ROLE\.email/)
      const missing = await csvPost('Employee.email,field:Salary\r\na@example.eu,1\r\n', '')
      assert.match(missing.json().error.message, /no column "Manager\.email"/)
      const unclosed = await csvPost('Employee.email,Manager.email\r\n"a@example.eu,b@example.eu\r\n', '')
      assert.equal(unclosed.statusCode, 422)
      assert.match(unclosed.json().error.message, /^csv: is not CSV as RFC 4180 writes it/)
    })

    it('10 001 rows are refused with the count, as JSON and as CSV; 10 000 are not', async () => {
      const rows = Array.from({ length: 10_001 }, (_, i) => bulkRow(i))
      const json = await post(t, key, '/v1/bulk_sends', { template_id: templateId, dry_run: true, rows })
      assert.equal(json.statusCode, 422)
      assert.equal(json.json().error.message, 'rows: must have at most 10000 items.')
      const line = 'a@example.eu,b@example.eu\r\n'
      const csv = await csvPost(`Employee.email,Manager.email\r\n${line.repeat(10_001)}`, '&dry_run=true')
      assert.equal(csv.statusCode, 422)
      assert.match(csv.json().error.message, /^csv: has 10001 rows; at most 10000 in one bulk send/)
      const ok = await csvPost(`Employee.email,Manager.email\r\n${line.repeat(10_000)}`, '&dry_run=true')
      assert.equal(ok.statusCode, 200, whatHappened(t, ok))
      assert.equal(ok.json().rows, 10_000)
    })

    it('refuses rows and csv together, a query string with JSON, and an unknown template', async () => {
      const both = await post(t, key, '/v1/bulk_sends', {
        template_id: templateId,
        rows: [bulkRow(1)],
        csv: 'x',
      })
      assert.match(both.json().error.message, /give either `rows` or `csv`/)
      const query = await post(t, key, `/v1/bulk_sends?dry_run=true`, {
        template_id: templateId,
        rows: [bulkRow(1)],
      })
      assert.equal(query.statusCode, 422)
      assert.equal(query.json().error.param, 'dry_run')
      const unknown = await post(t, key, '/v1/bulk_sends', {
        template_id: `tpl_${'x'.repeat(24)}`,
        rows: [bulkRow(1)],
      })
      assert.equal(unknown.json().error.code, 'template_not_found')
    })
  })

  describe('the job', () => {
    it('creates every row in order, once, with bulk_send_id; counts, rows by status, the filter and the event', async () => {
      const res = await post(t, key, '/v1/bulk_sends', {
        template_id: templateId,
        send_email: false,
        metadata: { campaign: '2027', team: 'all' },
        rows: [
          bulkRow(1),
          { ...bulkRow(2), metadata: { team: 'ops' } },
          { ...bulkRow(3), values: { Salary: 'x' } },
        ],
      })
      assert.equal(res.statusCode, 202, whatHappened(t, res))
      const job = res.json()
      assert.match(job.id, /^bulk_[0-9A-Za-z]{24}$/)
      assert.equal(job.status, 'queued')
      await runJobs(t)
      const done = await get(`/v1/bulk_sends/${job.id}`)
      assert.equal(done.status, 'completed_with_errors')
      assert.deepEqual(done.counts, { total: 3, created: 2, failed: 1, cancelled: 0, pending: 0 })
      assert.ok(done.completed_at)
      const created = await get(`/v1/bulk_sends/${job.id}/rows?status=created`)
      assert.deepEqual(
        created.data.map((r: { row: number }) => r.row),
        [1, 2],
      )
      const failed = await get(`/v1/bulk_sends/${job.id}/rows?status=failed`)
      assert.equal(failed.data[0].row, 3)
      assert.equal(failed.data[0].errors[0].column, 'values.Salary')
      const listed = await get(`/v1/submissions?bulk_send_id=${job.id}`)
      assert.deepEqual(
        listed.data.map((s: { id: string }) => s.id).sort(),
        created.data.map((r: { submission_id: string }) => r.submission_id).sort(),
      )
      const second = listed.data.find((s: { id: string }) => s.id === created.data[1].submission_id)
      assert.deepEqual(second.metadata, { campaign: '2027', team: 'ops' })
      const rowsBySubmission = await t.deps.db
        .selectFrom('submissions')
        .select(['bulk_send_row'])
        .where('bulk_send_id', '=', job.id)
        .orderBy('created_at')
        .orderBy('bulk_send_row')
        .execute()
      assert.deepEqual(
        rowsBySubmission.map((r) => r.bulk_send_row),
        [1, 2],
      )
      const events = await get(`/v1/events?type=bulk_send.completed`)
      const event = events.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === job.id)
      assert.equal(event.data.object.status, 'completed_with_errors')
      const page = await get(`/v1/bulk_sends/${job.id}/rows?limit=1`)
      assert.equal(page.has_more, true)
      const next = await get(
        `/v1/bulk_sends/${job.id}/rows?limit=1&cursor=${encodeURIComponent(page.next_cursor)}`,
      )
      assert.equal(next.data[0].row, 2)
      const jobs = await get('/v1/bulk_sends')
      assert.ok(jobs.data.some((j: { id: string }) => j.id === job.id))
    })

    it('two runs at the same instant make each row once (the guarded row, the unique job and row)', async () => {
      const rows = Array.from({ length: 60 }, (_, i) => bulkRow(i + 100))
      const res = await post(t, key, '/v1/bulk_sends', { template_id: templateId, send_email: false, rows })
      const { id } = res.json()
      await Promise.all([runBulkSend(t.deps, id), runBulkSend(t.deps, id), runBulkSend(t.deps, id)])
      await runJobs(t)
      const made = await t.deps.db
        .selectFrom('submissions')
        .select(['bulk_send_row'])
        .where('bulk_send_id', '=', id)
        .execute()
      assert.equal(made.length, 60)
      assert.equal(new Set(made.map((m) => m.bulk_send_row)).size, 60)
      const done = await get(`/v1/bulk_sends/${id}`)
      assert.equal(done.status, 'completed')
      assert.equal(done.counts.created, 60)
      const completedEvents = await t.deps.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'bulk_send.completed')
        .where('data', 'like', `%${id}%`)
        .execute()
      assert.equal(completedEvents.length, 1)
    })

    it('DELETE stops the rows not yet created; an ended job is 409', async () => {
      const res = await post(t, key, '/v1/bulk_sends', {
        template_id: templateId,
        send_email: false,
        rows: [bulkRow(201), bulkRow(202)],
      })
      const { id } = res.json()
      const cancelled = await t.request(key, { method: 'DELETE', url: `/v1/bulk_sends/${id}` })
      assert.equal(cancelled.statusCode, 200, whatHappened(t, cancelled))
      assert.equal(cancelled.json().status, 'cancelled')
      assert.deepEqual(cancelled.json().counts, { total: 2, created: 0, failed: 0, cancelled: 2, pending: 0 })
      await runJobs(t)
      assert.equal((await get(`/v1/submissions?bulk_send_id=${id}`)).data.length, 0)
      const again = await t.request(key, { method: 'DELETE', url: `/v1/bulk_sends/${id}` })
      assert.equal(again.statusCode, 409)
      assert.equal(again.json().error.code, 'bulk_send_already_finalized')
    })

    it("a template archived before the rows' turn fails them with why", async () => {
      const other = await bulkTemplate(t, key)
      const res = await post(t, key, '/v1/bulk_sends', {
        template_id: other,
        send_email: false,
        rows: [bulkRow(301)],
      })
      const { id } = res.json()
      const archived = await t.request(key, { method: 'DELETE', url: `/v1/templates/${other}` })
      assert.equal(archived.statusCode, 200, whatHappened(t, archived))
      await runJobs(t)
      const failed = await get(`/v1/bulk_sends/${id}/rows?status=failed`)
      assert.equal(failed.data[0].errors[0].code, 'template_archived')
    })

    it("counts once against the key's per-minute quota, whatever its rows", async () => {
      const remaining = async () =>
        Number((await t.request(key, { method: 'GET', url: '/v1/health' })).headers['x-ratelimit-remaining'])
      const rows = Array.from({ length: 50 }, (_, i) => bulkRow(i + 500))
      const before = await remaining()
      const res = await post(t, key, '/v1/bulk_sends', { template_id: templateId, send_email: false, rows })
      assert.equal(res.statusCode, 202)
      assert.equal(Number(res.headers['x-ratelimit-remaining']), before - 1)
      await runJobs(t)
      assert.equal(await remaining(), before - 2)
    })

    it('the same Idempotency-Key replays the job instead of making a second', async () => {
      const body = { template_id: templateId, send_email: false, rows: [bulkRow(401)] }
      const first = await post(t, key, '/v1/bulk_sends', body, 'bulk-replay-key-1')
      const second = await post(t, key, '/v1/bulk_sends', body, 'bulk-replay-key-1')
      assert.equal(second.statusCode, 202)
      assert.equal(second.headers['idempotent-replayed'], 'true')
      assert.equal(second.json().id, first.json().id)
    })
  })
})
