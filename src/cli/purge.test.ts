// `paraph purge --dry-run | --now` (docs/privacy.md#the-operators-part) as an operator runs it: a
// real process on the test app's database and blob folder.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { runParaph } from '../../test/paraph-process.ts'
import { createSubmission, everyTypeBody, submissionRow } from '../../test/signing.ts'

describe('paraph purge', () => {
  let t: TestApp
  let key: string
  let ended: string
  let recent: string
  let active: string
  before(async () => {
    // The app's clock stands a week before the command's (the system clock): what ends now is
    // 7 days old for the command.
    t = await startTestApp({ clockStart: new Date(Date.now() - 7 * 24 * 3600 * 1000) })
    key = (await t.account()).testKey
    const make = async () => (await createSubmission(t, key, await everyTypeBody(['first']))).id
    ;[ended, recent, active] = [await make(), await make(), await make()]
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${ended}` })
    t.clock.advance(5 * 24 * 3600 * 1000)
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${recent}` })
    const policy = await t.request(key, {
      method: 'PUT',
      url: '/v1/retention_policy',
      payload: { delete_after_days: 3 },
    })
    assert.equal(policy.statusCode, 200, policy.body)
  })
  after(() => t.close())

  it('refuses to guess: one of --dry-run or --now', async () => {
    const result = await runParaph(['purge'], t.env)
    assert.equal(result.code, 1)
    assert.match(result.stderr, /give one of --dry-run .* or --now/)
  })

  it('--dry-run lists what the policy deletes today and changes nothing; --now purges it', async () => {
    const dry = await runParaph(['purge', '--dry-run', '--json'], t.env)
    assert.equal(dry.code, 0, dry.stderr)
    const [plan] = JSON.parse(dry.stdout)
    assert.equal(plan.delete_after_days, 3)
    assert.deepEqual(
      plan.submissions.map((s: { id: string }) => s.id),
      [ended],
      'ended 7 days ago: due; ended 2 days ago or active: not',
    )
    const text = await runParaph(['purge', '--dry-run'], t.env)
    assert.match(text.stdout, new RegExp(`${ended} {2}cancelled`))
    assert.match(text.stdout, /1 submission\(s\) would be purged\. Nothing was changed/)
    assert.equal((await submissionRow(t, ended))!.purged_at, null)

    const now = await runParaph(['purge', '--now'], t.env)
    assert.equal(now.code, 0, now.stderr)
    assert.match(now.stdout, /^1 submission\(s\) purged in \d+\.\d s\.$/m)
    assert.ok((await submissionRow(t, ended))!.purged_at)
    assert.equal((await submissionRow(t, recent))!.purged_at, null)
    assert.equal((await submissionRow(t, active))!.purged_at, null)
    const again = await runParaph(['purge', '--dry-run', '--json'], t.env)
    assert.deepEqual(JSON.parse(again.stdout)[0].submissions, [])
  })
})
