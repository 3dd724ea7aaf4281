// `paraph deprecations notify` on a test build of the app whose GET /v1/test/old is deprecated
// (test/test-routes.ts): live keys' calls in the last 30 UTC days make their account's owner due one
// notice, queued with its row in one transaction and read on the tests' real SMTP server.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SmtpTestServer } from '../../test/fixtures/smtp.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { TEST_ROUTES } from '../../test/test-routes.ts'
import { API_ROUTES } from '../app.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { mailJob } from '../mail/mail-job.ts'
import { renderDeprecationNotice } from '../mail/messages/deprecation-notice.ts'
import { createAccount } from './create-account.ts'
import {
  deprecatedRoutes,
  describeOutcomes,
  type NoticeOutcome,
  notifyDeprecations,
  outcomesJson,
} from './deprecation-notices.ts'

const ROUTES = [...API_ROUTES, ...TEST_ROUTES]
const TODAY = '2026-11-26T09:00:00.000Z'

describe('paraph deprecations notify', () => {
  let smtp: SmtpTestServer
  let t: TestApp
  const accounts: Record<string, { account_id: string; test_key: string; live_key: string }> = {}

  const callAt = async (at: string, key: string, url: string) => {
    t.clock.set(at)
    const res = await t.request(key, { method: 'GET', url })
    assert.ok(res.statusCode < 500, res.body)
    await t.deps.keyActivity.flush()
  }
  const mailJobs = () =>
    t.deps.db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', mailJob.kind).execute()
  const summary = (outcomes: NoticeOutcome[]) =>
    outcomes.map(
      (o) => `${o.outcome} ${o.accountId === accounts.ann!.account_id ? 'ann' : (o.ownerEmail ?? 'none')}`,
    )

  before(async () => {
    smtp = await SmtpTestServer.start()
    t = await startTestApp({ routes: ROUTES, env: { SMTP_URL: smtp.url } })
    for (const [name, ownerEmail] of [
      ['ann', 'ann@acme.example'],
      ['bob', undefined],
      ['cid', 'cid@test-only.example'],
      ['dan', 'dan@long-ago.example'],
      ['eve', 'eve@edge.example'],
    ] as const) {
      accounts[name] = await createAccount(t.deps, { name, ownerEmail })
    }
    // Ann: two live calls on two days, and a current route; her test key too.
    await callAt('2026-11-20T10:00:00.000Z', accounts.ann!.live_key, '/v1/test/old')
    await callAt('2026-11-24T18:30:00.000Z', accounts.ann!.live_key, '/v1/test/old')
    await callAt('2026-11-24T18:31:00.000Z', accounts.ann!.live_key, '/v1/health')
    await callAt('2026-11-25T08:00:00.000Z', accounts.ann!.test_key, '/v1/test/old')
    // Bob has no owner e-mail; Cid called with his test key only.
    await callAt('2026-11-21T10:00:00.000Z', accounts.bob!.live_key, '/v1/test/old')
    await callAt('2026-11-21T10:00:00.000Z', accounts.cid!.test_key, '/v1/test/old')
    // Dan's last call is 30 days before today: outside the window; Eve's, 29 days: inside.
    await callAt('2026-10-27T23:59:00.000Z', accounts.dan!.live_key, '/v1/test/old')
    await callAt('2026-10-28T00:00:00.000Z', accounts.eve!.live_key, '/v1/test/old')
    t.clock.set(TODAY)
  })
  after(async () => {
    await t.close()
    await smtp.stop()
  })

  it('finds the deprecated routes of the route list it is given', () => {
    assert.deepEqual(deprecatedRoutes(ROUTES), [
      {
        route: 'GET /v1/test/old',
        since: '2026-11-01',
        sunset: '2027-06-01',
        link: 'https://paraph.example/changelog#old',
      },
    ])
    assert.deepEqual(deprecatedRoutes(API_ROUTES), [])
    assert.deepEqual(describeOutcomes([], 0, false), ['No route is deprecated: nothing to send.'])
  })

  it('--dry-run says who would be told and writes nothing', async () => {
    const outcomes = await notifyDeprecations(t.deps, ROUTES, { dryRun: true })
    assert.deepEqual(summary(outcomes).sort(), [
      'no_owner_email none',
      'would_queue ann',
      'would_queue eve@edge.example',
    ])
    assert.equal((await mailJobs()).length, 0)
    assert.equal((await t.deps.db.selectFrom('deprecation_notices').selectAll().execute()).length, 0)
    const lines = describeOutcomes(outcomes, 1, true)
    assert.match(
      lines.at(-1)!,
      /^Dry run: 2 notice\(s\) would be queued for 1 deprecated route\(s\); 1 account\(s\) without an owner e-mail\.$/,
    )
    const json = outcomesJson(outcomes, 1, true)
    assert.deepEqual([json.object, json.dry_run, json.deprecated_routes], ['deprecation_notice_run', true, 1])
    assert.deepEqual(
      json.notices.map((n) => [n.route, n.outcome, n.owner_email === null]).sort(),
      outcomes.map((o) => [o.route.route, o.outcome, o.ownerEmail === null]).sort(),
    )
    const [old] = deprecatedRoutes(ROUTES)
    assert.ok(
      json.notices.every((n) => n.since === old!.since && n.sunset === old!.sunset && n.key_hints.length > 0),
    )
  })

  it('queues one notice per account and route, with its row, even when two runs overlap', async () => {
    const [first, second] = await Promise.all([
      notifyDeprecations(t.deps, ROUTES),
      notifyDeprecations(t.deps, ROUTES),
    ])
    const queued = [...first!, ...second!].filter((o) => o.outcome === 'queued')
    assert.deepEqual(summary(queued).sort(), ['queued ann', 'queued eve@edge.example'])
    const ann = queued.find((o) => o.accountId === accounts.ann!.account_id)!
    assert.equal(ann.lastCallDay, '2026-11-24')
    assert.deepEqual(ann.keyHints, [`${accounts.ann!.live_key.slice(0, 12)}…`], 'the live key only')
    assert.equal((await mailJobs()).length, 2)
    const rows = await t.deps.db.selectFrom('deprecation_notices').selectAll().orderBy('sent_to').execute()
    assert.deepEqual(
      rows.map((r) => [r.account_id, r.route, r.sent_to, r.queued_at]),
      [
        [accounts.ann!.account_id, 'GET /v1/test/old', 'ann@acme.example', TODAY],
        [accounts.eve!.account_id, 'GET /v1/test/old', 'eve@edge.example', TODAY],
      ],
    )
    const line = describeOutcomes([ann], 1, false)[0]!
    assert.equal(
      line,
      `queued       GET /v1/test/old  ${ann.accountId}  to ann@acme.example  (last call 2026-11-24; keys ${ann.keyHints[0]})`,
    )
  })

  it('the worker sends the notice: route, dates, last call, keys and link, to the owner', async () => {
    await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
    const mail = smtp.received.find((m) => m.envelope.to.includes('ann@acme.example'))
    assert.ok(mail, `received: ${smtp.received.map((m) => m.envelope.to).join(', ')}`)
    assert.equal(mail.subject, 'Deprecated API route: GET /v1/test/old')
    for (const expected of [
      'Your live API keys called GET /v1/test/old in the last 30 days. This route has been deprecated since 1 November 2026.',
      'GET /v1/test/old stops working after 1 June 2027',
      `Last call: 24 November 2026, with the keys ${accounts.ann!.live_key.slice(0, 12)}…`,
      'https://paraph.example/changelog#old',
    ]) {
      assert.ok(mail.text.includes(expected), `${expected}\n---\n${mail.text}`)
    }
    assert.ok(!mail.text.includes(accounts.ann!.live_key), 'never the key itself')
    assert.ok(mail.html.includes('href="https://paraph.example/changelog#old"'))
    assert.equal(smtp.received.length, 2, 'Ann and Eve; not Bob (no e-mail), Cid (test key), Dan (too old)')
  })

  it('a second run sends nothing new; the account without an owner e-mail is reported again', async () => {
    const outcomes = await notifyDeprecations(t.deps, ROUTES)
    assert.deepEqual(summary(outcomes), ['no_owner_email none'])
    assert.equal(outcomes[0]!.accountId, accounts.bob!.account_id)
    assert.equal(await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) }), 0)
    assert.equal(smtp.received.length, 2)
    assert.match(
      describeOutcomes(outcomes, 1, false)[0]!,
      /^not sent {5}GET \/v1\/test\/old {2}acct_\w+ {2}the account has no owner e-mail/,
    )
  })
})

describe('the deprecation notice', () => {
  it('names the route as the OpenAPI document writes it', () => {
    const mail = renderDeprecationNotice({
      route: 'GET /v1/submitters/:id/embed_token',
      since: '2027-01-15',
      sunset: '2027-07-15',
      link: null,
      lastCallDay: '2026-11-25',
      keyHints: ['sk_live_AbCd…'],
      account: 'Acme (acct_1)',
    })
    assert.equal(mail.subject, 'Deprecated API route: GET /v1/submitters/{id}/embed_token')
    // A notice to the account's owner, sent on nobody's behalf: the footer says why it came.
    assert.match(
      mail.text,
      /\n--\nSent by Paraph to the owner address of the account Acme \(acct_1\)\. To have these notices sent elsewhere, change the account's owner e-mail\.\n$/,
    )
    assert.ok(!mail.text.includes('on behalf of') && !mail.html.includes('on behalf of'))
    assert.match(mail.text, /called GET \/v1\/submitters\/\{id\}\/embed_token in the last 30 days/)
    assert.ok(!mail.text.includes(':id'))
  })
})
