// The paraph binary as an operator runs it: real processes, real database, real HTTP.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody } from '../../test/documents.ts'
import { WebhookReceiver } from '../../test/fixtures/webhook-receiver.ts'
import { createSchema, dropSchema, ENGINE, testEnv } from '../../test/harness.ts'
import { ParaphProcess, runParaph } from '../../test/paraph-process.ts'
import { findActiveKey } from '../accounts/account-store.ts'
import { readConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { enqueue } from '../jobs/job-store.ts'
import { systemClock } from '../lib/clock.ts'
import { deriveKey } from '../lib/crypto.ts'
import { randomIds } from '../lib/ids.ts'
import { mailJob } from '../mail/mail-job.ts'
import { deriveEmailCode } from '../signing-page/email-code.ts'
import { type EmailCodeJobPayload, emailCodeJob } from '../signing-page/email-code-job.ts'

describe('paraph CLI', () => {
  let dataDir: string
  let schema: string | undefined
  let env: Record<string, string>

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'paraph-cli-'))
    schema = ENGINE === 'postgres' ? await createSchema() : undefined
    env = testEnv(dataDir, schema)
  })
  after(async () => {
    if (schema) await dropSchema(schema)
    await rm(dataDir, { recursive: true, force: true })
  })

  const start = (args: string[], extraEnv: Record<string, string> = {}) =>
    new ParaphProcess(args, { ...env, ...extraEnv })
  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    runParaph(args, { ...env, ...extraEnv })

  async function keyIsActive(key: string) {
    const database = openDatabase(readConfig(env).database)
    try {
      return await findActiveKey(database.db, key)
    } finally {
      await database.close()
    }
  }

  it('migrate applies the migrations once', async () => {
    const first = await run(['migrate'])
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, /Applied: 0001-foundation/)
    const second = await run(['migrate'])
    assert.equal(second.stdout.trim(), 'Database is up to date.')
  })

  it('serve: first start creates the default account and prints its keys once; they work', async () => {
    // PUBLIC_URL unset, as on a first start from the README: it follows PORT.
    const child = start(['serve'], { PORT: '0', PUBLIC_URL: '', ALLOW_PRIVATE_NETWORK_URLS: 'true' })
    try {
      const [, base] = await child.waitFor(/Paraph listening on (http:\/\/127\.0\.0\.1:\d+)/)
      const testKey = /test key {2}(sk_test_\w+)/.exec(child.output)?.[1]
      const liveKey = /live key {2}(sk_live_\w+)/.exec(child.output)?.[1]
      assert.ok(testKey && liveKey, child.output)
      // The banner's example names the address actually bound, with the key to paste.
      assert.ok(child.output.includes(`Bearer ${testKey}" ${base}/v1/health`), child.output)
      assert.doesNotMatch(child.output, /FSTDEP|DeprecationWarning|FastifyWarning/, 'no warning at start')
      const res = await fetch(`${base}/v1/health`, { headers: { authorization: `Bearer ${testKey}` } })
      assert.equal(res.status, 200)
      assert.equal(((await res.json()) as { environment: string }).environment, 'test')
      // The banner's way into the console, run as printed: the address let in gets a sign-in link.
      const add = /npx paraph (members add --account acct_\w+ --email you@example\.com)/.exec(
        child.output,
      )?.[1]
      assert.ok(add, child.output)
      // Each command is printed with the settings this server runs with that a command would not
      // have by default (its port, data folder, database), so run as printed it reaches this server.
      const printed = /^ {2}(.*)npx paraph console-link --email you@example\.com$/m.exec(child.output)?.[1]
      assert.ok(printed !== undefined, child.output)
      const settings: Record<string, string> = Object.fromEntries(
        printed
          .trim()
          .split(' ')
          .filter(Boolean)
          .map((p) => p.split('=') as [string, string]),
      )
      const expected =
        ENGINE === 'postgres' ? ['DATABASE_URL', 'DATA_DIR', 'PUBLIC_URL'] : ['DATA_DIR', 'PUBLIC_URL']
      assert.deepEqual(Object.keys(settings).sort(), expected)
      assert.equal(settings.PUBLIC_URL, base)
      assert.equal(settings.DATA_DIR, dataDir)
      // The shell would expand "$DATABASE_URL": the operator's own, which the test environment holds.
      delete settings.DATABASE_URL
      assert.equal((await run(add.split(' '), settings)).code, 0)
      const link = await run(['console-link', '--email', 'you@example.com'], { ...settings, PUBLIC_URL: '' })
      assert.equal(new URL(link.stdout.split(' ')[0]!).origin, 'http://127.0.0.1:8080')
      assert.match(link.stderr, /give this command the server's PUBLIC_URL or PORT/, 'unset, it says so')
      const right = await run(['console-link', '--email', 'you@example.com'], settings)
      assert.equal(new URL(right.stdout.split(' ')[0]!).origin, base, right.stderr)
      assert.doesNotMatch(right.stderr, /give this command/)
      const warning = child.output.split('\n').find((l) => l.includes('ALLOW_PRIVATE_NETWORK_URLS=true'))
      assert.ok(warning, 'the private-network switch is logged')
      assert.equal(JSON.parse(warning).level, 40, 'as a warning')
    } finally {
      await child.stop()
    }
    const second = start(['serve', '--no-worker'], { PORT: '0' })
    try {
      await second.waitFor(/Paraph listening on/)
      assert.ok(!second.output.includes('test key'), 'keys are printed only on the very first start')
    } finally {
      await second.stop()
    }
  })

  it('accounts create --json prints an account with working keys', async () => {
    const result = await run(['accounts', 'create', '--name', 'Acme', '--email', 'owner@acme.eu', '--json'])
    assert.equal(result.code, 0, result.stderr)
    const created = JSON.parse(result.stdout) as { account_id: string; test_key: string; live_key: string }
    assert.deepEqual(Object.keys(created), ['account_id', 'test_key', 'live_key'])
    assert.match(created.account_id, /^acct_/)
    assert.equal((await keyIsActive(created.test_key))?.environment, 'test')
    assert.equal((await keyIsActive(created.live_key))?.accountId, created.account_id)
  })

  it('keys create and keys revoke', async () => {
    const account = JSON.parse((await run(['accounts', 'create', '--name', 'Keys', '--json'])).stdout)
    const made = await run([
      'keys',
      'create',
      '--account',
      account.account_id,
      '--env',
      'live',
      '--name',
      ' Billing backend ',
      '--json',
    ])
    assert.equal(made.code, 0, made.stderr)
    const issued = JSON.parse(made.stdout) as {
      key_id: string
      key: string
      environment: string
      name: string
    }
    assert.equal(issued.environment, 'live')
    assert.equal(issued.name, 'Billing backend')
    const listed = await run(['keys', 'list', '--account', account.account_id])
    assert.match(listed.stdout, new RegExp(`${issued.key_id} .* "Billing backend"`))
    const long = await run([
      'keys',
      'create',
      '--account',
      account.account_id,
      '--env',
      'test',
      '--name',
      'x'.repeat(101),
    ])
    assert.equal(long.code, 1)
    assert.match(long.stderr, /--name must be at most 100 characters/)
    assert.ok(await keyIsActive(issued.key))
    const revoked = await run(['keys', 'revoke', issued.key_id])
    assert.equal(revoked.code, 0, revoked.stderr)
    assert.equal(await keyIsActive(issued.key), undefined)
    const twice = await run(['keys', 'revoke', issued.key_id])
    assert.equal(twice.code, 1)
    assert.match(twice.stderr, /already revoked/)
  })

  it('keys list shows every key of the account with its hint, revocation and last use', async () => {
    const account = JSON.parse((await run(['accounts', 'create', '--name', 'Listed', '--json'])).stdout)
    const extra = JSON.parse(
      (await run(['keys', 'create', '--account', account.account_id, '--env', 'live', '--json'])).stdout,
    ) as { key_id: string }
    assert.equal((await run(['keys', 'revoke', extra.key_id])).code, 0)
    const database = openDatabase(readConfig(env).database)
    try {
      const used = await findActiveKey(database.db, account.live_key)
      await database.db
        .updateTable('api_keys')
        .set({ last_used_at: '2026-11-22T10:07:00.000Z' })
        .where('id', '=', used!.keyId)
        .execute()
    } finally {
      await database.close()
    }
    const listed = await run(['keys', 'list', '--account', account.account_id, '--json'])
    assert.equal(listed.code, 0, listed.stderr)
    const keys = JSON.parse(listed.stdout) as Array<Record<string, string | null>>
    assert.equal(keys.length, 3)
    assert.ok(!listed.stdout.includes(account.live_key), 'no secret')
    const live = keys.find((k) => k.last_used_at !== null)!
    assert.equal(live.hint, `${account.live_key.slice(0, 12)}…`)
    assert.equal(live.environment, 'live')
    assert.equal(keys.find((k) => k.id === extra.key_id)!.revoked_at !== null, true)
    const text = (await run(['keys', 'list', '--account', account.account_id])).stdout
    assert.match(
      text,
      /live {2}sk_live_\w{4}… {2}created \S+ {2}active {2}last used 2026-11-22T10:07:00\.000Z/,
    )
    assert.match(text, new RegExp(`${extra.key_id} .* revoked \\S+ {2}never used`))
    assert.match(text, /test {2}sk_test_\w{4}… .* never used/)
  })

  it('deprecations notify: the shipped route list deprecates nothing, so nothing is sent', async () => {
    for (const args of [
      ['deprecations', 'notify', '--dry-run'],
      ['deprecations', 'notify'],
    ]) {
      const result = await run(args)
      assert.equal(result.code, 0, result.stderr)
      assert.equal(result.stdout, 'No route is deprecated: nothing to send.\n')
    }
    const json = await run(['deprecations', 'notify', '--dry-run', '--json'])
    assert.equal(json.code, 0, json.stderr)
    assert.deepEqual(JSON.parse(json.stdout), {
      object: 'deprecation_notice_run',
      dry_run: true,
      deprecated_routes: 0,
      notices: [],
    })
  })

  it('refuses bad arguments with one line and exit code 1', async () => {
    for (const args of [
      ['keys', 'create', '--account', 'acct_nope', '--env', 'test'],
      ['keys', 'create', '--account', `acct_${'a'.repeat(24)}`, '--env', 'prod'],
      ['keys', 'create', '--account', `acct_${'a'.repeat(24)}`, '--env', 'test'],
      ['keys', 'revoke', 'not-a-key'],
      ['keys', 'list', '--account', 'acct_nope'],
      ['keys', 'list', '--account', `acct_${'a'.repeat(24)}`],
      ['accounts', 'create', '--name', 'x', '--email', 'not-an-email'],
    ]) {
      const result = await run(args)
      assert.equal(result.code, 1, args.join(' '))
      assert.match(result.stderr, /^paraph: .+\n$/, result.stderr)
    }
  })

  it('stops at start on invalid configuration, naming the variable in one line', async () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['DATABASE_URL', 'mysql://x'],
      ['RATE_LIMIT_TEST', '0'],
    ] as const) {
      const result = await run(['serve'], { [name]: value })
      assert.equal(result.code, 1)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, new RegExp(`^paraph: Invalid configuration: ${name} `))
    }
  })

  it('mail list shows the outbox, newest first', async () => {
    const database = openDatabase(readConfig(env).database)
    try {
      await database.db.transaction().execute((tx) =>
        enqueue(tx, { clock: systemClock, ids: randomIds }, mailJob, {
          to: 'ann@example.eu',
          bcc: null,
          reply_to: null,
          subject: 'Please sign',
          text: 'Sign here: https://x/s/abc',
          submission_id: 'sub_x',
          submitter_id: 'sbm_x',
        }),
      )
      // An e-mail code's mail is listed by what it is about, its code never kept.
      const code: EmailCodeJobPayload = {
        kind: 'email_code',
        to: 'bob@example.eu',
        to_name: 'Bob',
        language: 'en',
        document_name: 'Lease',
        sender_name: 'Acme',
        submission_id: 'sub_y',
        submitter_id: 'sbm_y',
        account_id: 'acct_y',
        environment: 'test',
      }
      await database.db
        .transaction()
        .execute((tx) => enqueue(tx, { clock: systemClock, ids: randomIds }, emailCodeJob, code))
    } finally {
      await database.close()
    }
    const result = await run(['mail', 'list', '--json'])
    assert.equal(result.code, 0, result.stderr)
    const mails = JSON.parse(result.stdout)
    const mail = mails.find((m: { to: string }) => m.to === 'ann@example.eu')
    assert.equal(mail.subject, 'Please sign')
    // The code is derived again from the job (never stored): the one its mail carries.
    const codeMail = mails.find((m: { to: string }) => m.to === 'bob@example.eu')
    assert.equal(codeMail.subject, 'Your code to open “Lease”')
    const expected = deriveEmailCode(
      deriveKey(env.PARAPH_SECRET!, 'email-2fa-code-seed-v1'),
      'sbm_y',
      codeMail.id,
    )
    assert.match(codeMail.text, new RegExp(`^ {4}${expected}$`, 'm'))
    const text = (await run(['mail', 'list'])).stdout
    assert.match(text, /to ann@example\.eu {2}"Please sign"/)
    assert.match(text, /to bob@example\.eu {2}"Your code to open “Lease”" {2}\(sub_y\)/)
    assert.ok(text.includes(expected))
  })

  it('serve delivers webhooks through its worker and dispatcher, and stops cleanly on SIGTERM', async () => {
    const receiver = await WebhookReceiver.start()
    const { test_key: key } = JSON.parse(
      (await run(['accounts', 'create', '--name', 'Hooks', '--json'])).stdout,
    ) as { test_key: string }
    const child = start(['serve'], { PORT: '0', ALLOW_PRIVATE_NETWORK_URLS: 'true' })
    try {
      const [, base] = await child.waitFor(/Paraph listening on (http:\/\/127\.0\.0\.1:\d+)/)
      const call = (path: string, body: unknown, extra: Record<string, string> = {}) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra },
          body: JSON.stringify(body),
        })
      const endpoint = await call('/v1/webhook_endpoints', {
        url: receiver.url(),
        events: ['submission.created'],
      })
      assert.equal(endpoint.status, 201)
      const created = await call('/v1/submissions/from_pdf', await fromPdfBody(), {
        'idempotency-key': 'cli-hook',
      })
      assert.equal(created.status, 201)
      const { id } = (await created.json()) as { id: string }
      await receiver.waitFor(1, 10_000)
      const hook = JSON.parse(receiver.received[0]!.body)
      assert.equal(hook.type, 'submission.created')
      assert.equal(hook.data.object.id, id)
    } finally {
      const code = await child.stop()
      await receiver.close()
      assert.equal(code, 0, child.output.slice(-2000))
    }
  })

  it('worker and serve --no-worker refuse to start without PUBLIC_URL, naming it', async () => {
    for (const args of [['worker'], ['serve', '--no-worker']]) {
      const result = await run(args, { PUBLIC_URL: '', PORT: '0' })
      assert.equal(result.code, 1, result.stdout)
      const lines = result.stderr.trim().split('\n')
      assert.equal(lines.length, 1, result.stderr)
      assert.match(lines[0]!, new RegExp(`^paraph: PUBLIC_URL is not set: \`paraph ${args.join(' ')}\``))
    }
  })

  it('worker starts and stops on SIGTERM', async () => {
    const child = start(['worker'])
    await child.waitFor(/paraph worker started/)
    assert.equal(await child.stop(), 0)
    assert.match(child.output, /paraph worker stopped/)
  })
})
