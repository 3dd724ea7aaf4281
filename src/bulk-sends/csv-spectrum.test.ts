// Real-world CSV through the whole path (docs/api.md#bulk-send): every file of csv-spectrum, a
// public suite of CSV edge cases (test/fixtures/files/csv-spectrum: quoted commas, doubled quotes,
// line breaks inside quotes, CRLF, empty cells, UTF-8, JSON in a cell), sent as a text/csv bulk send
// whose columns are the file's own, each a text field of the template. The submissions' prefilled
// values must be the suite's expected JSON, cell for cell (an empty cell: no value).
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runJobs } from '../../test/bulk.ts'
import { base64, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp, whatHappened } from '../../test/harness.ts'

const DIR = join(import.meta.dirname, '../../test/fixtures/files/csv-spectrum')
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.csv'))
  .map((f) => f.slice(0, -4))

/**
 * Where each record starts: a line break outside quotes ends a record. Written here, apart from
 * the parser under test, to put an address column before each record's first cell.
 */
function recordStarts(text: string): number[] {
  const starts = [0]
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted
    else if (text[i] === '\n' && !quoted && i + 1 < text.length) starts.push(i + 1)
  }
  return starts
}

function withSigners(text: string): string {
  const starts = recordStarts(text)
  let out = ''
  for (const [n, start] of starts.entries()) {
    const end = starts[n + 1] ?? text.length
    out += `${n === 0 ? 'Signer.email' : `signer${n}@example.eu`},${text.slice(start, end)}`
  }
  return out
}

describe('csv-spectrum files as bulk sends (docs/api.md#bulk-send)', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  it('covers the whole suite', () => {
    assert.ok(FILES.length >= 11, FILES.join(', '))
  })

  for (const name of FILES) {
    it(`${name}.csv: every cell prefilled as the suite expects`, async () => {
      const text = readFileSync(join(DIR, `${name}.csv`), 'utf8')
      const expected = JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as Array<
        Record<string, string>
      >
      const columns = Object.keys(expected[0]!)
      const template = await post(t, key, '/v1/templates', {
        name,
        documents: [
          {
            pdf_base64: base64(await a4()),
            fields: [
              { name: 'Signature', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.9, w: 0.3, h: 0.04 }] },
              ...columns.map((column, i) => ({
                name: column,
                type: 'text',
                role: 'Signer',
                required: false,
                areas: [{ page: 1, x: 0.1, y: 0.05 + i * 0.06, w: 0.5, h: 0.04 }],
              })),
            ],
          },
        ],
      })
      assert.equal(template.statusCode, 201, whatHappened(t, template))
      // The file's header names its columns; as fields of the template they are `field:NAME`.
      const [header, ...rest] = withSigners(text).split(/(?<=\n)/)
      const csv = [header!.replace(/(,)([^,\r\n]+)/g, '$1field:$2'), ...rest].join('')
      const res = await t.request(key, {
        method: 'POST',
        url: `/v1/bulk_sends?template_id=${template.json().id}&send_email=false`,
        headers: { 'content-type': 'text/csv', 'idempotency-key': crypto.randomUUID() },
        payload: csv,
      })
      assert.equal(res.statusCode, 202, whatHappened(t, res))
      await runJobs(t)
      const rows = await t.request(key, { method: 'GET', url: `/v1/bulk_sends/${res.json().id}/rows` })
      const made = rows.json().data as Array<{ status: string; submission_id: string; errors: unknown[] }>
      assert.equal(made.length, expected.length)
      for (const [i, row] of made.entries()) {
        assert.equal(row.status, 'created', JSON.stringify(row.errors))
        const submission = await t.request(key, {
          method: 'GET',
          url: `/v1/submissions/${row.submission_id}`,
        })
        const signer = submission.json().submitters[0]
        assert.equal(signer.email, `signer${i + 1}@example.eu`)
        const values = (await t.request(key, { method: 'GET', url: `/v1/submitters/${signer.id}` })).json()
          .values
        const want = Object.fromEntries(Object.entries(expected[i]!).filter(([, v]) => v !== ''))
        assert.deepEqual(values, want, `row ${i + 1}`)
      }
    })
  }
})
