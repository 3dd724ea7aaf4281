// POST /v1/submissions/from_html through the real app and a real Chromium: fields where the tags
// stood (within 2 pt of known CSS positions, on later pages too), the tag text gone from the PDF
// and the text around it kept, the tag report, every refusal of a bad tag, and a pre-signed party
// with a signer who signs, to a sealed final PDF.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { post } from '../../test/documents.ts'
import { inkCount, pixelBox } from '../../test/fixtures/ink.ts'
import { pdfsig, pdfText, rasterize } from '../../test/fixtures/poppler.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'
import { SIGNATURE, signer, submissionRow } from '../../test/signing.ts'
import { jobCatalogue } from '../job-catalogue.ts'
import { drainJobs } from '../jobs/worker.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

/** A page with no margin and each tag in a box of its own at (left, top) points. */
function positioned(tags: Array<{ tag: string; left: number; top: number; page?: number }>, size = 'A4') {
  const pages = Math.max(1, ...tags.map((t) => t.page ?? 1))
  const body = Array.from({ length: pages }, (_, p) => {
    const boxes = tags
      .filter((t) => (t.page ?? 1) === p + 1)
      .map(
        (t) =>
          `<div style="position:absolute;left:${t.left}pt;top:${t.top}pt;font-size:0;line-height:0">${t.tag}</div>`,
      )
      .join('')
    return `<section style="position:relative;display:flow-root;height:100vh;${p > 0 ? 'break-before:page;' : ''}">${boxes}<p style="font-size:12pt">Page ${p + 1} text</p></section>`
  }).join('')
  return `<!DOCTYPE html><html><head><style>@page{size:${size};margin:0}body{margin:0}</style></head><body>${body}</body></html>`
}

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 2, `${what}: ${actual} is not within 2 pt of ${expected}`)

describe('POST /v1/submissions/from_html', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })
  const create = (body: Record<string, unknown>) =>
    post(t, key, '/v1/submissions/from_html', {
      name: 'Agreement',
      submitters: [
        { role: 'Buyer', email: 'buyer@example.eu' },
        { role: 'Seller', email: 'seller@example.eu' },
      ],
      send_email: false,
      ...body,
    })
  const refusal = async (body: Record<string, unknown>) => {
    const res = await create(body)
    assert.equal(res.statusCode, 422, res.body)
    return errorOf(res)
  }
  const worker = () => drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
  const originalPdf = async (id: string) => {
    const documents = (await t.request(key, { method: 'GET', url: `/v1/submissions/${id}/documents` })).json()
    return (await t.app.inject({ method: 'GET', url: new URL(documents.original_pdf_url).pathname }))
      .rawPayload
  }

  describe('happy', () => {
    it('201: each field where its tag stood, within 2 pt, on pages 1 and 3, sized for its type', async () => {
      const res = await create({
        html: positioned([
          { tag: '{{Buyer signs;role=Buyer}}', left: 72, top: 100 },
          { tag: '{{Buyer date;role=Buyer;type=date}}', left: 300, top: 400 },
          { tag: '{{Seller signs;role=Seller;width=200;height=60}}', left: 50.5, top: 600.25, page: 3 },
        ]),
      })
      assert.equal(res.statusCode, 201, res.body)
      const { fields } = res.json()
      const byName = Object.fromEntries(fields.map((f: { name: string }) => [f.name, f]))
      const expected = [
        ['Buyer signs', 1, 72, 100, 160, 48, 'signature'],
        ['Buyer date', 1, 300, 400, 96, 18, 'date'],
        ['Seller signs', 3, 50.5, 600.25, 200, 60, 'signature'],
      ] as const
      for (const [name, page, x, y, w, h, type] of expected) {
        const field = byName[name]
        assert.equal(field.type, type)
        const [area] = field.areas
        assert.equal(area.page, page, name)
        near(area.x, x, `${name} x`)
        near(area.y, y, `${name} y`)
        near(area.w, w, `${name} w`)
        near(area.h, h, `${name} h`)
        near(area.fractions.x * 595, x, `${name} x as a fraction`)
        near(area.fractions.y * 842, y, `${name} y as a fraction`)
      }
      assert.equal(byName['Seller signs'].role, 'Seller')
      // GET /v1/submissions/{id} tells the same.
      const got = (await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })).json()
      assert.deepEqual(got.fields, fields)
    })

    it('the tag text is gone from the PDF, the text around it is kept; Letter pages are 612 × 792', async () => {
      const res = await create({
        size: 'Letter',
        html: '<h1>Sale agreement</h1><p>Signed by the buyer: {{Sig;role=Buyer}} on this day.</p><p>Seller <b>{{Sel</b>ler;role=Seller}} end.</p>',
      })
      assert.equal(res.statusCode, 201, res.body)
      const pdf = await originalPdf(res.json().id)
      const text = await pdfText(pdf)
      assert.ok(!text.includes('{{') && !text.includes('}}'), text)
      assert.ok(!text.includes('role='), text)
      for (const kept of ['Sale agreement', 'Signed by the buyer:', 'on this day.', 'Seller', 'end.'])
        assert.ok(text.includes(kept), `${kept} missing from: ${text}`)
      assert.ok(!Buffer.from(pdf).includes('fields.paraph.invalid'), 'no marker link is left in the PDF')
      const [field] = res.json().fields
      assert.ok(field.areas[0].fractions.w * 612 > 159 && field.areas[0].fractions.w * 612 < 161)
    })

    it('tags in a table and a list, several fonts and sizes, a repeated name as one field with two areas', async () => {
      const res = await create({
        html: `<style>td{border:1px solid}</style>
          <table><tr><td style="font:9pt serif">Buyer</td><td style="font:20pt monospace">{{Buyer signs;role=Buyer}}</td></tr></table>
          <ol><li style="font:14pt sans-serif">Seller: {{Seller signs;role=Seller}}</li>
          <li>Initials <i>{{Init;role=Buyer;type=initials}}</i> and again {{Init;role=Buyer;type=initials}}</li></ol>`,
      })
      assert.equal(res.statusCode, 201, res.body)
      const names = res.json().fields.map((f: { name: string; areas: unknown[] }) => [f.name, f.areas.length])
      assert.deepEqual(names, [
        ['Buyer signs', 1],
        ['Seller signs', 1],
        ['Init', 2],
      ])
    })
  })

  describe('errors', () => {
    it('a 1 × 1 pt tag in the corner of a page without margins stays 1 × 1 pt (not read as fractions of the page)', async () => {
      const res = await create({
        html: '<style>@page{margin:0}body{margin:0}</style><div style="line-height:0">{{Tick;role=Buyer;type=checkbox;width=1;height=1}}</div>',
        submitters: [{ role: 'Buyer', email: 'buyer@example.eu' }],
      })
      assert.equal(res.statusCode, 201, res.body)
      const [area] = res.json().fields[0].areas
      assert.ok(area.x <= 1 && area.y <= 1 && area.w <= 2 && area.h <= 2, JSON.stringify(area))
    })

    it('a tag in a table header printed on every page is an area on each', async () => {
      const rows = Array.from({ length: 120 }, (_, i) => `<tr><td>Row ${i + 1}</td></tr>`).join('')
      const res = await create({
        html: `<table><thead><tr><th>Initials: {{Initials;role=Buyer;type=initials}}</th></tr></thead><tbody>${rows}</tbody></table>`,
        submitters: [{ role: 'Buyer', email: 'buyer@example.eu' }],
      })
      assert.equal(res.statusCode, 201, res.body)
      const [field] = res.json().fields
      const pages = field.areas.map((a: { page: number }) => a.page)
      assert.ok(pages.length >= 2, JSON.stringify(field.areas))
      assert.deepEqual(
        pages,
        Array.from({ length: pages.length }, (_, i) => i + 1),
      )
    })

    it('422 invalid_template_tag when repeated headers print the tags more than 500 times', async () => {
      const boxes = Array.from({ length: 200 }, (_, i) => `{{I${i};role=Buyer;type=checkbox;required=false}}`)
      const rows = Array.from({ length: 150 }, (_, i) => `<tr><td>Row ${i + 1}</td></tr>`).join('')
      const refused = await refusal({
        html: `<table><thead><tr><th>${boxes.join(' ')}</th></tr></thead><tbody>${rows}</tbody></table>`,
        submitters: [{ role: 'Buyer', email: 'buyer@example.eu' }],
      })
      assert.equal(refused.code, 'invalid_template_tag')
      assert.match(refused.message, /^html: the tags are printed \d+ times .*at most 500 field areas\.$/)
    })

    it('422 invalid_template_tag quoting the tag and where it is', async () => {
      const bad = await refusal({ html: '<p>one</p>\n<p>Sign here: {{Sig;role=Buyer;colour=red}}</p>' })
      assert.equal(bad.code, 'invalid_template_tag')
      assert.match(
        bad.message,
        /^html: the tag "\{\{Sig;role=Buyer;colour=red\}\}" \(line 2, column 15, after "Sign here:"\): unknown attribute "colour"/,
      )
      const open = await refusal({ html: '<p>{{Sig;role=Buyer</p><p>}}</p>' })
      assert.equal(open.code, 'invalid_template_tag')
      assert.match(open.message, /is not closed/)
      const type = await refusal({ html: '<p>{{Sig;type=stamp}}</p>' })
      assert.match(type.message, /unsupported type "stamp"/)
    })

    it('422 invalid_template_tag for a tag hidden by the document, or two tags of one name that disagree', async () => {
      const hidden = await refusal({
        html: '<p>{{A;role=Buyer}}</p><div style="display:none">{{B;role=Seller}}</div>',
      })
      assert.equal(hidden.code, 'invalid_template_tag')
      assert.match(hidden.message, /the tag "\{\{B;role=Seller\}\}" .* does not appear on the rendered pages/)
      const clash = await refusal({ html: '<p>{{A;role=Buyer}} {{A;role=Seller}}</p>' })
      assert.match(clash.message, /repeats the field "A" .* with another role/)
    })

    it('422 no_tags_found, and submitter_role_not_in_template both ways', async () => {
      const none = await refusal({ html: '<p>No tags here</p>' })
      assert.equal(none.code, 'no_tags_found')
      const stranger = await refusal({ html: '<p>{{A;role=Buyer}} {{B;role=Notary}}</p>' })
      assert.equal(stranger.code, 'submitter_role_not_in_template')
      assert.match(stranger.message, /role "Notary", which no submitter has/)
      const idle = await refusal({ html: '<p>{{A;role=Buyer}}</p>' })
      assert.equal(idle.code, 'submitter_role_not_in_template')
      assert.match(idle.message, /^submitters\[1\]\.role: no tag of the document is for role "Seller"/)
    })

    it('422 for field declarations on a submitter, strict body keys and nesting past 512; 413 above 4 MB', async () => {
      const declared = await refusal({
        html: '<p>{{A;role=Buyer}} {{B;role=Seller}}</p>',
        submitters: [
          {
            role: 'Buyer',
            email: 'b@example.eu',
            fields: [{ name: 'X', areas: [{ page: 1, x: 0, y: 0, w: 1, h: 1 }] }],
          },
          { role: 'Seller', email: 's@example.eu' },
        ],
      })
      assert.match(
        declared.message,
        /^submitters\[0\]\.fields\[0\]: the fields of an HTML or DOCX document are its/,
      )
      const deep = await refusal({
        html: `<p>{{A;role=Buyer}} {{B;role=Seller}}</p>${'<div>'.repeat(50_000)}${'</div>'.repeat(50_000)}`,
      })
      assert.equal(deep.code, 'invalid_request')
      assert.match(deep.message, /^html: elements are nested more than 512 deep/)
      const unknown = await refusal({ html: '<p>{{A}}</p>', colour: 'red' })
      assert.equal(unknown.code, 'invalid_request')
      const big = await create({
        html: `<p>{{A;role=Buyer}} {{B;role=Seller}}</p>${'x'.repeat(4 * 1024 * 1024)}`,
      })
      assert.equal(big.statusCode, 413, big.body)
      assert.equal(errorOf(big).code, 'request_too_large')
    })
  })

  describe('security', () => {
    let server: Server
    let hits = 0
    before(async () => {
      server = createServer((_req, res) => {
        hits++
        res.end('root:x:0:0')
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    })
    after(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('external images, stylesheets, frames, file: and scripts: no request made, nothing shown', async () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const res = await create({
        html: `<html><head><link rel="stylesheet" href="${origin}/a.css"><style>@import url("${origin}/b.css");</style></head>
          <body><img src="${origin}/c.png"><iframe src="${origin}/d"></iframe><iframe src="file:///etc/passwd"></iframe>
          <script>document.write('JS RAN')</script><p>{{A;role=Buyer}} {{B;role=Seller}}</p></body></html>`,
      })
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(hits, 0, 'no request reached the server')
      const text = await pdfText(await originalPdf(res.json().id))
      assert.ok(!text.includes('root:') && !text.includes('JS RAN'), text)
    })
  })

  it('a pre-signed party and a signer who signs: completed, sealed, both signatures drawn where the tags were', async () => {
    const res = await create({
      html: positioned([
        { tag: '{{Company;role=Company}}', left: 72, top: 500 },
        { tag: '{{Client;role=Client}}', left: 320, top: 500 },
      ]),
      submitters: [
        {
          role: 'Company',
          email: 'ceo@example.eu',
          completed: true,
          fields: [{ name: 'Company', readonly: true, default_value: SIGNATURE }],
        },
        { role: 'Client', email: 'client@example.eu' },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const created = res.json()
    const submitter = (
      await t.request(key, { method: 'GET', url: `/v1/submitters/${created.submitters[0].id}` })
    ).json()
    assert.equal(submitter.status, 'pre_signed')
    assert.equal(submitter.values.Company, SIGNATURE)
    const signed = await signer(t, created.submitters[1], 'sign', { values: { Client: SIGNATURE } })
    assert.equal(signed.statusCode, 200, signed.body)
    await worker()
    const row = await submissionRow(t, created.id)
    assert.equal(row.status, 'completed', row.finalize_error ?? '')
    const documents = (
      await t.request(key, { method: 'GET', url: `/v1/submissions/${created.id}/documents` })
    ).json()
    const final = (await t.app.inject({ method: 'GET', url: new URL(documents.signed_pdf_url).pathname }))
      .rawPayload
    assert.match(await pdfsig(final), /Signature is Valid\./)
    const raster = await rasterize(final, 1, 72)
    for (const field of created.fields) {
      const box = pixelBox(raster, field.areas[0].fractions)
      assert.ok(inkCount(raster, box) > 50, `${field.name} is drawn in its area`)
    }
  })
})
