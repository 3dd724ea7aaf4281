// `paraph usage`: one row per account, as JSON and as RFC 4180 CSV, from the real
// binary against the test database (both engines).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import { runParaph } from '../../test/paraph-process.ts'
import { recordedSignatures } from '../../test/signing.ts'
import type { Environment } from '../db/tables.ts'
import { csvField, toCsv } from './usage-report.ts'

describe('paraph usage', () => {
  let t: TestApp
  const accounts: Record<string, string> = {}
  before(async () => {
    t = await startTestApp({ env: { PRICE_TIERS: '2:100,inf:50', PRICE_CURRENCY: 'EUR' } })
    for (const name of ['Alpha', 'Beta, "the second"\nline two', 'Gamma'])
      accounts[name] = (await t.account(name)).accountId
    const sign = (account: string, environment: Environment, at: string, count: number) =>
      recordedSignatures(t, account, environment, at, count)
    await sign(accounts.Alpha!, 'live', '2026-10-31T23:59:59.999Z', 2)
    await sign(accounts.Alpha!, 'live', '2026-11-01T00:00:00.000Z', 5)
    await sign(accounts.Alpha!, 'test', '2026-10-10T00:00:00.000Z', 9)
    await sign(accounts['Beta, "the second"\nline two']!, 'live', '2026-10-01T00:00:00.000Z', 3)
  })
  after(() => t.close())
  const run = (args: string[]) => runParaph(['usage', ...args], t.env)

  it('--json: one object per account, live signatures only, tier and amount by volume', async () => {
    const result = await run(['--month', '2026-10', '--json'])
    assert.equal(result.code, 0, result.stderr)
    const rows = JSON.parse(result.stdout)
    assert.deepEqual(rows, [
      {
        month: '2026-10',
        account_id: accounts.Alpha,
        name: 'Alpha',
        live_signatures: 2,
        tier: { up_to: 2, unit_amount: 100 },
        amount: 200,
        currency: 'EUR',
      },
      {
        month: '2026-10',
        account_id: accounts['Beta, "the second"\nline two'],
        name: 'Beta, "the second"\nline two',
        live_signatures: 3,
        tier: { up_to: null, unit_amount: 50 },
        amount: 150,
        currency: 'EUR',
      },
      {
        month: '2026-10',
        account_id: accounts.Gamma,
        name: 'Gamma',
        live_signatures: 0,
        tier: { up_to: 2, unit_amount: 100 },
        amount: 0,
        currency: 'EUR',
      },
    ])
  })

  it('--csv: RFC 4180 with a header row, CRLF line ends, quoted fields where needed', async () => {
    const result = await run(['--month', '2026-10', '--csv'])
    assert.equal(result.code, 0, result.stderr)
    assert.equal(
      result.stdout,
      [
        'month,account_id,name,live_signatures,tier_up_to,unit_amount,amount,currency',
        `2026-10,${accounts.Alpha},Alpha,2,2,100,200,EUR`,
        `2026-10,${accounts['Beta, "the second"\nline two']},"Beta, ""the second""\nline two",3,inf,50,150,EUR`,
        `2026-10,${accounts.Gamma},Gamma,0,2,100,0,EUR`,
        '',
      ].join('\r\n'),
    )
  })

  it('the next month holds only its own signatures; a table by default', async () => {
    const result = await run(['--month', '2026-11'])
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout.trimEnd().split('\n')
    assert.match(
      lines[0]!,
      /^ACCOUNT\s+NAME\s+LIVE SIGNATURES\s+TIER UP TO\s+UNIT AMOUNT\s+AMOUNT\s+CURRENCY$/,
    )
    assert.match(lines[1]!, new RegExp(`^${accounts.Alpha}\\s+Alpha\\s+5\\s+inf\\s+50\\s+250\\s+EUR$`))
    assert.equal(lines.length, 4)
  })

  it('refuses a bad --month, and --json with --csv, with one line and exit code 1', async () => {
    const bad = await run(['--month', '2026-13'])
    assert.equal(bad.code, 1)
    assert.match(bad.stderr.trim(), /^paraph: --month: expected a calendar month written YYYY-MM/)
    assert.equal(bad.stderr.trim().split('\n').length, 1)
    const both = await run(['--json', '--csv'])
    assert.equal(both.code, 1)
    assert.match(both.stderr, /--json and --csv/)
  })

  it('csvField quotes commas, quotes, CR and LF, and nothing else', () => {
    assert.equal(csvField('plain text'), 'plain text')
    assert.equal(csvField(12), '12')
    assert.equal(csvField('a,b'), '"a,b"')
    assert.equal(csvField('say "hi"'), '"say ""hi"""')
    assert.equal(csvField('a\rb'), '"a\rb"')
    assert.equal(csvField('a\nb'), '"a\nb"')
    assert.equal(
      toCsv([]),
      'month,account_id,name,live_signatures,tier_up_to,unit_amount,amount,currency\r\n',
    )
  })
})
