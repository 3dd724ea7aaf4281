// `paraph members add|list` and `paraph console-link` as an operator runs them, against the
// database of an in-process app that then follows the printed link.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SmtpTestServer } from '../../test/fixtures/smtp.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { runParaph } from '../../test/paraph-process.ts'

describe('paraph members and console-link', () => {
  let t: TestApp
  let accountId: string
  const run = (args: string[]) => runParaph(args, t.env)
  before(async () => {
    // The CLI's clock is the real one: the app's starts at the same time, so the link is fresh.
    t = await startTestApp({ clockStart: new Date() })
    accountId = (await t.account('Acme')).accountId
  })
  after(() => t.close())

  it('members add --json adds a member (lower-cased); a second add of the address fails', async () => {
    const added = await run([
      'members',
      'add',
      '--account',
      accountId,
      '--email',
      'Ada@Example.eu',
      '--role',
      'editor',
      '--json',
    ])
    assert.equal(added.code, 0, added.stderr)
    const member = JSON.parse(added.stdout)
    assert.match(member.id, /^mem_[0-9A-Za-z]{24}$/)
    assert.equal(member.email, 'ada@example.eu')
    assert.equal(member.role, 'editor')
    assert.equal(member.account_id, accountId)
    const twice = await run(['members', 'add', '--account', accountId, '--email', 'ada@example.eu'])
    assert.equal(twice.code, 1)
    assert.match(twice.stderr, /already a member/)
  })

  it('members add defaults to admin; members list shows every member', async () => {
    const added = await run(['members', 'add', '--account', accountId, '--email', 'bob@example.eu'])
    assert.equal(added.code, 0, added.stderr)
    assert.match(added.stdout, /^Member mem_\w+ \(bob@example\.eu, admin\) added to acct_/)
    const listed = await run(['members', 'list', '--account', accountId, '--json'])
    assert.equal(listed.code, 0, listed.stderr)
    assert.deepEqual(
      JSON.parse(listed.stdout)
        .map((m: { email: string; role: string }) => [m.email, m.role])
        .sort(),
      [
        ['ada@example.eu', 'editor'],
        ['bob@example.eu', 'admin'],
      ],
    )
    const text = await run(['members', 'list', '--account', accountId])
    assert.match(text.stdout, /mem_\w+ {2}admin +bob@example\.eu {2}added .* {2}never signed in/)
  })

  it('console-link prints a link that signs the member in, once', async () => {
    const printed = await run(['console-link', '--email', 'ADA@example.eu', '--json'])
    assert.equal(printed.code, 0, printed.stderr)
    const [link, ...more] = JSON.parse(printed.stdout)
    assert.equal(more.length, 0)
    assert.equal(link.account_id, accountId)
    assert.equal(link.account_name, 'Acme')
    const url = new URL(link.url)
    assert.equal(url.origin, t.config.publicUrl)
    assert.match(url.pathname, /^\/console\/sign-in\/[0-9A-Za-z]{43}$/)
    const signIn = await t.app.inject({ method: 'POST', url: url.pathname })
    assert.equal(signIn.statusCode, 303)
    const cookie = /^(paraph_console=[0-9A-Za-z]{43});/.exec(String(signIn.headers['set-cookie']))?.[1]
    assert.ok(cookie)
    const session = await t.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } })
    assert.deepEqual(session.json().member.email, 'ada@example.eu')
    assert.deepEqual(session.json().member.role, 'editor')
    assert.equal((await t.app.inject({ method: 'POST', url: url.pathname })).statusCode, 410)
  })

  it('console-link fails for an address that is no member, or not of --account', async () => {
    const none = await run(['console-link', '--email', 'nobody@example.eu'])
    assert.equal(none.code, 1)
    assert.match(none.stderr, /not a console member/)
    const other = (await t.account('Other')).accountId
    const elsewhere = await run(['console-link', '--email', 'ada@example.eu', '--account', other])
    assert.equal(elsewhere.code, 1)
    assert.match(elsewhere.stderr, new RegExp(`not a console member of ${other}`))
  })

  it('members add and console-link take an internationalized address, found by either spelling; a bad one is refused saying why', async () => {
    const added = await run([
      'members',
      'add',
      '--account',
      accountId,
      '--email',
      'Zoe@Müller-Bau.de',
      '--json',
    ])
    assert.equal(added.code, 0, added.stderr)
    assert.equal(JSON.parse(added.stdout).email, 'zoe@müller-bau.de')
    const link = await run(['console-link', '--email', 'zoe@xn--mller-bau-q9a.de', '--json'])
    assert.equal(link.code, 0, link.stderr)
    assert.equal(JSON.parse(link.stdout)[0].account_id, accountId)
    const bad = await run(['members', 'add', '--account', accountId, '--email', 'zoe@p\u0430ypal.com'])
    assert.equal(bad.code, 1)
    assert.match(
      bad.stderr,
      /--email zoe@p\u0430ypal\.com: the domain "p\u0430ypal\.com" mixes Latin and Cyrillic letters/,
    )
    const badOwner = await run(['accounts', 'create', '--name', 'X', '--email', 'zoe@localhost'])
    assert.equal(badOwner.code, 1)
    assert.match(badOwner.stderr, /--email zoe@localhost: the domain "localhost" has no dot/)
  })

  it('members add refuses a non-ASCII local part when SMTP_URL cannot take it (422 email_not_deliverable as one line)', async () => {
    const smtp = await SmtpTestServer.start({ smtputf8: false })
    try {
      const refused = await runParaph(
        ['members', 'add', '--account', accountId, '--email', 'jörg@müller-bau.de'],
        { ...t.env, SMTP_URL: smtp.url },
      )
      assert.equal(refused.code, 1)
      assert.match(
        refused.stderr,
        /--email: the local part "jörg" is not ASCII and the SMTP server does not announce SMTPUTF8/,
      )
    } finally {
      await smtp.stop()
    }
  })

  it('accounts create --email makes the owner the first admin', async () => {
    const created = await run([
      'accounts',
      'create',
      '--name',
      'Owned',
      '--email',
      'Owner@Owned.eu',
      '--json',
    ])
    assert.equal(created.code, 0, created.stderr)
    const { account_id } = JSON.parse(created.stdout)
    const listed = JSON.parse((await run(['members', 'list', '--account', account_id, '--json'])).stdout)
    assert.deepEqual(
      listed.map((m: { email: string; role: string }) => [m.email, m.role]),
      [['owner@owned.eu', 'admin']],
    )
  })
})
