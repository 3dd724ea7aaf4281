// POST /v1/submissions/from_docx through the real app, mammoth and Chromium: a Word contract built
// with the `docx` package (headings, emphasis, lists, a table, an image, a tag split over three
// differently formatted runs), and one saved by LibreOffice, become submissions with their fields
// where the tags stood; hostile and broken files are refused with the spec's codes.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import { contractDocx, minimalDocx, zipBombDocx } from '../../test/fixtures/docx.ts'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'
import { closeDocxConverter } from '../render/docx-to-html.ts'
import { inflateZipEntries, readZipDirectory } from '../render/zip-gate.ts'
import { storedZip } from '../render/zip-store.ts'

/** The Word contract with one part edited (a stored ZIP, as a tool that rewrote it would save). */
async function contractWith(part: string, edit: (xml: string) => string): Promise<Buffer> {
  const docx = await contractDocx()
  const files = inflateZipEntries(docx, readZipDirectory(docx))
  files.set(part, Buffer.from(edit(files.get(part)!.toString('utf8'))))
  return storedZip(files)
}
const afterXmlDeclaration = (insert: string) => (xml: string) =>
  xml.replace(/^(<\?xml[^>]*\?>)/, `$1${insert}`)

describe('POST /v1/submissions/from_docx', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    closeDocxConverter()
    closePdfFinalizer()
    await t.close()
  })
  const create = (file: Buffer | string, extra: Record<string, unknown> = {}) =>
    post(t, key, '/v1/submissions/from_docx', {
      name: 'Service Agreement',
      file: typeof file === 'string' ? file : file.toString('base64'),
      submitters: [
        { role: 'A', email: 'client@example.eu' },
        { role: 'B', email: 'provider@example.eu' },
      ],
      send_email: false,
      ...extra,
    })

  it('a contract saved by LibreOffice Writer: tags in a table and a list, split by bold and italic runs, after a page break', async () => {
    // test/fixtures/files/libreoffice-agreement.docx: LibreOffice 7.4 (Debian 12) saved the HTML
    // beside it as Word 2007 XML (soffice --headless --convert-to docx). A file no library of ours wrote.
    const file = await readFile(
      new URL('../../test/fixtures/files/libreoffice-agreement.docx', import.meta.url),
    )
    const res = await create(file, {
      submitters: [
        { role: 'Client', email: 'client@example.eu' },
        { role: 'Provider', email: 'provider@example.eu' },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const fields = res.json().fields as Array<{
      name: string
      role: string
      type: string
      required: boolean
      areas: Array<{ page: number; x: number; w: number; h: number }>
    }>
    assert.deepEqual(
      fields.map((f) => [f.name, f.role, f.type, f.required, f.areas.map((a) => a.page)]),
      [
        ['Client name', 'Client', 'text', true, [1]],
        ['Start', 'Client', 'date', true, [1]],
        ['Support', 'Client', 'checkbox', false, [1]],
        ['Invoices', 'Client', 'checkbox', false, [1]],
        ['Provider signature', 'Provider', 'signature', true, [2]],
        ['Client signature', 'Client', 'signature', true, [2]],
      ],
    )
    const signature = fields[5]!.areas[0]!
    assert.ok(Math.abs(signature.w - 160) <= 2 && Math.abs(signature.h - 48) <= 2, JSON.stringify(signature))
    const documents = (
      await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}/documents` })
    ).json()
    const pdf = (await t.app.inject({ method: 'GET', url: new URL(documents.original_pdf_url).pathname }))
      .rawPayload
    const text = await pdfText(pdf)
    for (const kept of [
      'Service agreement',
      'made between Acme SARL (the Provider)',
      'Invoices by e-mail:',
      'Signed for the Client:',
    ])
      assert.ok(text.includes(kept), `${kept} in ${text}`)
    assert.ok(!text.includes('{{') && !text.includes('role='), text)
  })

  it('201: every tag a field, the one split over three runs too, the document text kept and the tags gone', async () => {
    const res = await create(await contractDocx())
    assert.equal(res.statusCode, 201, res.body)
    const fields = res.json().fields as Array<{
      name: string
      role: string
      type: string
      areas: Array<{ page: number }>
    }>
    assert.deepEqual(
      fields.map((f) => [f.name, f.role, f.type]),
      [
        ['Name', 'A', 'signature'],
        ['Initials', 'A', 'initials'],
        ['Provider', 'B', 'signature'],
        ['Date', 'A', 'date'],
        ['Final', 'A', 'signature'],
      ],
    )
    // Word's page breaks are kept: the last tags are on page 3, the first ones on page 1.
    const pageOf = (name: string) => fields.find((f) => f.name === name)?.areas[0]?.page
    assert.deepEqual([pageOf('Name'), pageOf('Provider'), pageOf('Date'), pageOf('Final')], [1, 1, 3, 3])
    const documents = (
      await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}/documents` })
    ).json()
    const pdf = (await t.app.inject({ method: 'GET', url: new URL(documents.original_pdf_url).pathname }))
      .rawPayload
    const text = await pdfText(pdf)
    assert.ok(!text.includes('{{') && !text.includes('role='), text)
    for (const kept of [
      'Service Agreement',
      'binding',
      'confidential',
      'Client signature:',
      'Obligations',
      'Provider',
      'Signed on',
    ])
      assert.ok(text.includes(kept), `${kept} missing from: ${text}`)
  })

  it('a tag error names the text before the tag; a DOCX without tags is no_tags_found', async () => {
    const bad = await create(
      minimalDocx(
        '<w:p><w:r><w:t xml:space="preserve">Agreed by the client: {{Sig;role=A;type=stamp}}</w:t></w:r></w:p>',
      ),
    )
    assert.equal(bad.statusCode, 422, bad.body)
    assert.equal(errorOf(bad).code, 'invalid_template_tag')
    assert.match(
      errorOf(bad).message,
      /^file: the tag "\{\{Sig;role=A;type=stamp\}\}" \(after "Agreed by the client:"\): unsupported type "stamp"/,
    )
    const none = await create(minimalDocx('<w:p><w:r><w:t>No tags at all</w:t></w:r></w:p>'))
    assert.equal(errorOf(none).code, 'no_tags_found')
  })

  it('422 invalid_docx for bad base64, a non-DOCX and a zip bomb (refused before anything is inflated)', async () => {
    for (const file of [
      'not base64!!',
      Buffer.from('plain text, not a zip').toString('base64'),
      await zipBombDocx(),
    ]) {
      const res = await create(file)
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_docx')
      assert.match(errorOf(res).message, /^file: /)
    }
  })

  // issue #20: before, the first was 201 (mammoth's parser let it through) and the second a 500
  // docx_convert_failed logged with its stack.
  it('422 invalid_docx naming the part for a DOCTYPE or an entity declaration, refused before mammoth, nothing logged as an error', async () => {
    const laughs =
      '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    const cases: Array<[Buffer, RegExp]> = [
      [
        await contractWith('word/document.xml', afterXmlDeclaration('<!DOCTYPE w:document>')),
        /^file: word\/document\.xml declares a document type \(<!DOCTYPE\)/,
      ],
      [
        await contractWith('word/document.xml', (xml) =>
          afterXmlDeclaration(laughs)(xml).replace('<w:t', '<w:t>&b;</w:t></w:r><w:r><w:t'),
        ),
        /^file: word\/document\.xml declares a document type/,
      ],
      [
        await contractWith('[Content_Types].xml', afterXmlDeclaration('<!DOCTYPE Types [<!ENTITY x "y">]>')),
        /^file: \[Content_Types\]\.xml declares a document type/,
      ],
      [
        await contractWith('word/styles.xml', (xml) => xml.replace('<w:styles', '<!ENTITY x "y"><w:styles')),
        /^file: word\/styles\.xml declares an entity \(<!ENTITY\)/,
      ],
    ]
    const errorsBefore = t.logs.entries().filter((e) => Number(e.level) >= 50).length
    for (const [file, message] of cases) {
      const res = await create(file)
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, 'invalid_docx')
      assert.match(errorOf(res).message, message)
    }
    assert.equal(t.logs.entries().filter((e) => Number(e.level) >= 50).length, errorsBefore)
    // The same contract, unedited and rewritten the same way, is accepted.
    assert.equal((await create(await contractWith('word/styles.xml', (xml) => xml))).statusCode, 201)
  })

  it('checks the submitters before converting anything', async () => {
    const res = await create(await zipBombDocx(), {
      submitters: [{ role: 'A', email: 'a@example.eu', require_phone_2fa: true }],
    })
    assert.equal(errorOf(res).code, 'phone_2fa_not_supported')
  })
})
