import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PageSizes } from 'pdf-lib'
import { type ConsoleClient, signedInMember } from '../../test/console/console-client.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { periodicTasks } from '../job-catalogue.ts'
import { sha256Hex } from '../lib/crypto.ts'
import { hashToken, insertSession } from './access/console-session-store.ts'
import { consumeSignInLink, insertSignInLink } from './access/sign-in-link-store.ts'
import { purgeConsole } from './purge-console.ts'

const HOUR = 3600_000

describe('console housekeeping', () => {
  let t: TestApp
  let accountId: string
  let pdf: Buffer
  before(async () => {
    t = await startTestApp()
    accountId = (await t.account('Acme')).accountId
    pdf = Buffer.from(await pdfOfPages([PageSizes.A4]))
  })
  after(() => t.close())

  const upload = async (member: ConsoleClient) => {
    const res = await member.request({
      method: 'POST',
      url: '/console/api/template_drafts?name=Lease',
      headers: { 'content-type': 'application/pdf' },
      payload: pdf,
    })
    assert.equal(res.statusCode, 201, res.body)
    const id = res.json().id as string
    const row = await t.deps.db
      .selectFrom('template_drafts')
      .select('blob_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    return { id, blobKey: row.blob_key }
  }
  const memberRow = (client: ConsoleClient) => ({ id: client.memberId, account_id: accountId })
  const link = (client: ConsoleClient) => insertSignInLink(t.deps.db, t.clock, memberRow(client), '10.0.0.1')
  // Written as countSignInRequest writes them, without its own clean-up of the old ones.
  const request = (email: string) =>
    t.deps.db
      .insertInto('console_sign_in_requests')
      .values({ email_hash: sha256Hex(email), ip: '10.0.0.1', created_at: t.clock.now().toISOString() })
      .execute()
  const use = (token: string) =>
    t.deps.db.transaction().execute((tx) => consumeSignInLink(tx, t.clock, hashToken(token)))

  it('removes expired drafts with their blobs, old links, ended or expired sessions and old requests; keeps what is live', async () => {
    // Yesterday: a draft with a rendered page, a session left idle, one signed out, two links
    // (one used) and a sign-in request.
    const idle = await signedInMember(t, accountId, { email: 'idle@example.eu' })
    const oldDraft = await upload(idle)
    const image = await idle.request({
      method: 'GET',
      url: `/console/api/template_drafts/${oldDraft.id}/pages/1`,
    })
    assert.equal(image.statusCode, 200)
    const oldImage = `${oldDraft.blobKey}.pages/1-800.jpg`
    assert.ok(await t.deps.blobs.exists(oldImage), 'the page image is kept where the purge looks for it')
    const signedOut = await signedInMember(t, accountId, { email: 'gone@example.eu' })
    assert.equal((await signedOut.request({ method: 'POST', url: '/console/api/sign_out' })).statusCode, 200)
    await link(idle)
    assert.ok(await use(await link(signedOut)))
    await request('idle@example.eu')

    // 25 hours later: past the draft's 24 hours, the sessions' 12 idle hours, and a day past the
    // links' expiry. Then what is live now: a session in use, a fresh draft, an unused fresh link,
    // a link used a minute ago (still answering 410), and a request inside the window.
    t.clock.advance(25 * HOUR)
    const live = await signedInMember(t, accountId, { email: 'live@example.eu' })
    const freshDraft = await upload(live)
    const freshLink = await link(live)
    const usedNow = await link(live)
    assert.ok(await use(usedNow))
    await request('live@example.eu')
    t.clock.advance(60_000)

    for (const task of periodicTasks(t.deps)) await task.run()

    const drafts = await t.deps.db.selectFrom('template_drafts').select('id').execute()
    assert.deepEqual(drafts, [{ id: freshDraft.id }])
    assert.equal(await t.deps.blobs.exists(oldDraft.blobKey), false)
    assert.equal(await t.deps.blobs.exists(oldImage), false)
    assert.equal(await t.deps.blobs.exists(freshDraft.blobKey), true)
    const sessions = await t.deps.db.selectFrom('console_sessions').select('id').execute()
    assert.deepEqual(sessions, [{ id: live.sessionId }])
    const links = await t.deps.db.selectFrom('console_sign_in_links').select('token_hash').execute()
    assert.deepEqual(
      new Set(links.map((l) => l.token_hash)),
      new Set([hashToken(freshLink), hashToken(usedNow)]),
    )
    const requests = await t.deps.db.selectFrom('console_sign_in_requests').select('created_at').execute()
    assert.equal(requests.length, 1)
    assert.ok(
      t.logs
        .entries()
        .some(
          (e) =>
            e.msg === 'console rows purged' &&
            e.drafts === 1 &&
            e.links === 2 &&
            e.sessions === 2 &&
            e.requests === 1,
        ),
    )

    // What was kept still works: the live session reads, the fresh draft renders.
    assert.equal((await live.request({ method: 'GET', url: '/console/api/session' })).statusCode, 200)
    const page = await live.request({
      method: 'GET',
      url: `/console/api/template_drafts/${freshDraft.id}/pages/1`,
    })
    assert.equal(page.statusCode, 200)
  })

  it('works through more rows than a batch, a batch at a time', async () => {
    // What the test above kept is let go first: a week on, everything of it has expired.
    t.clock.advance(8 * 24 * HOUR)
    await purgeConsole(t.deps)
    const members = await Promise.all(
      ['b1', 'b2', 'b3', 'b4', 'b5'].map((n) => signedInMember(t, accountId, { email: `${n}@example.eu` })),
    )
    for (const m of members) {
      await insertSession(t.deps.db, t.deps, memberRow(m))
      await request(`${m.memberId}@example.eu`)
      t.clock.advance(1)
    }
    t.clock.advance(13 * HOUR)
    const kept = await signedInMember(t, accountId, { email: 'kept@example.eu' })
    const purged = await purgeConsole(t.deps, 2)
    // signedInMember and insertSession made two sessions per member: ten, all idle past 12 hours.
    assert.deepEqual(purged, { drafts: 0, links: 0, sessions: 10, requests: 5 })
    const sessions = await t.deps.db.selectFrom('console_sessions').select('id').execute()
    assert.deepEqual(sessions, [{ id: kept.sessionId }])
  })
})
