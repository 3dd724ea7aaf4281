// Values the contract is silent on, refused where they would be stored differently than sent, or
// differently on the two engines. Runs on SQLite and PostgreSQL: the U+0000 case was a
// 201 on one and a 500 on the other.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64, fromPdfBody, post, signerField } from '../../test/documents.ts'
import { pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const URL_ = '/v1/submissions/from_pdf'

describe('POST /v1/submissions/from_pdf: strict values', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const rows = async () => {
    const count = async (table: 'submissions' | 'submitters' | 'templates' | 'events') =>
      Number(
        (
          await t.deps.db
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    return [
      await count('submissions'),
      await count('submitters'),
      await count('templates'),
      await count('events'),
    ]
  }

  /** Sends raw JSON text, so values JSON.stringify cannot write (1e309, lone escapes) reach the server. */
  const sendRaw = (text: string) =>
    t.request(key, {
      method: 'POST',
      url: URL_,
      payload: text,
      headers: { 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
    })

  const refused = async (
    res: Awaited<ReturnType<typeof sendRaw>>,
    status: number,
    code: string,
    pattern: RegExp,
  ) => {
    assert.equal(res.statusCode, status, res.body)
    assert.equal(errorOf(res).code, code)
    assert.match(errorOf(res).message, pattern)
  }

  describe('redirect_url', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      '/relative',
      'ftp://example.eu/x',
      'https://',
    ]) {
      it(`422 invalid_request for ${JSON.stringify(bad)}, nothing stored`, async () => {
        const before = await rows()
        const res = await post(t, key, URL_, await fromPdfBody({ redirect_url: bad }))
        await refused(
          res,
          422,
          'invalid_request',
          /^redirect_url: must be an absolute https: or http: URL\.$/,
        )
        assert.deepEqual(await rows(), before)
      })
    }

    it('201 for https: and http: URLs, echoed unchanged', async () => {
      for (const good of ['https://example.eu/done?x=1#y', 'http://intranet.example:8080/after']) {
        const res = await post(t, key, URL_, await fromPdfBody({ redirect_url: good }))
        assert.equal(res.statusCode, 201, res.body)
        const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
        assert.equal(read.json().redirect_url, good)
      }
    })
  })

  describe('text that cannot be stored as sent', () => {
    it('422 naming the path for U+0000 in a string, on both engines, nothing stored', async () => {
      const before = await rows()
      const body = await fromPdfBody({ metadata: { note: 'a\u0000b' } })
      await refused(
        await post(t, key, URL_, body),
        422,
        'invalid_request',
        /^metadata\.note: must not contain the character U\+0000\.$/,
      )
      const named = await fromPdfBody({
        submitters: [{ role: 'signer', email: 'a@example.eu', name: 'A\u0000' }],
      })
      await refused(
        await post(t, key, URL_, named),
        422,
        'invalid_request',
        /^submitters\[0\]\.name: must not/,
      )
      const inKey = await fromPdfBody({ metadata: { 'k\u0000': 'v' } })
      await refused(await post(t, key, URL_, inKey), 422, 'invalid_request', /^metadata\.k.: key must not/)
      assert.deepEqual(await rows(), before)
    })

    it('422 for a lone UTF-16 surrogate, which would be stored as U+FFFD', async () => {
      const text = JSON.stringify(await fromPdfBody({ metadata: { note: 'PLACEHOLDER' } }))
      const res = await sendRaw(text.replace('PLACEHOLDER', '\\ud800x'))
      await refused(res, 422, 'invalid_request', /^metadata\.note: must not contain a lone UTF-16 surrogate/)
    })

    it('201 for a proper surrogate pair and for an escaped backslash before u0000', async () => {
      const text = JSON.stringify(
        await fromPdfBody({ metadata: { emoji: 'PLACEHOLDER', path: 'C:\\u0000' } }),
      )
      const res = await sendRaw(text.replace('PLACEHOLDER', '\\ud83d\\ude00'))
      assert.equal(res.statusCode, 201, res.body)
      const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
      assert.deepEqual(read.json().metadata, { emoji: '😀', path: 'C:\\u0000' })
    })

    it('400 invalid_json for bytes that are not UTF-8, naming the offset; nothing stored', async () => {
      const before = await rows()
      const text = JSON.stringify(await fromPdfBody({ metadata: { note: 'PLACEHOLDER' } }))
      const [head, tail] = text.split('PLACEHOLDER') as [string, string]
      const bytes = Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28]), Buffer.from(tail)])
      const res = await t.request(key, {
        method: 'POST',
        url: URL_,
        payload: bytes,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-utf8' },
      })
      await refused(
        res,
        400,
        'invalid_json',
        new RegExp(`not valid UTF-8 \\(first invalid byte at offset ${head.length}\\)`),
      )
      assert.deepEqual(await rows(), before)
    })
  })

  describe('numbers and keys', () => {
    it('422 for a metadata number JSON rounds to infinity (1e309 would be stored as null)', async () => {
      const text = JSON.stringify(await fromPdfBody({ metadata: { big: 7 } }))
      for (const literal of ['1e309', '-1e309', '9'.repeat(400)]) {
        const res = await sendRaw(text.replace('"big":7', `"big":${literal}`))
        await refused(res, 422, 'invalid_request', /^metadata\.big: must be a finite number/)
      }
      const fine = await sendRaw(text.replace('"big":7', '"big":1.7976931348623157e308'))
      assert.equal(fine.statusCode, 201, fine.body)
    })

    it('422 for a "__proto__" key anywhere, named by path; "constructor" is an ordinary metadata key', async () => {
      const text = JSON.stringify(await fromPdfBody({ metadata: { PLACEHOLDER: 1 } }))
      const res = await sendRaw(text.replace('"PLACEHOLDER"', '"__proto__"'))
      await refused(
        res,
        422,
        'invalid_request',
        /^metadata\.__proto__: the key "__proto__" is not accepted\.$/,
      )
      const ordinary = await post(
        t,
        key,
        URL_,
        await fromPdfBody({ metadata: { constructor: 'x', toString: 1 } }),
      )
      assert.equal(ordinary.statusCode, 201, ordinary.body)
      const read = await t.request(key, { method: 'GET', url: `/v1/submissions/${ordinary.json().id}` })
      assert.deepEqual(read.json().metadata, { constructor: 'x', toString: 1 })
    })

    it('422 for a body nested deeper than 32 levels, without walking it all', async () => {
      const res = await sendRaw(`{"metadata":${'['.repeat(5000)}${']'.repeat(5000)}}`)
      await refused(res, 422, 'invalid_request', /nests deeper than 32 levels/)
    })
  })

  describe('field names called like Object.prototype members', () => {
    const areas = (y: number) => [{ page: 1, x: 0.1, y, w: 0.2, h: 0.05 }]
    const documents = async () => [
      {
        pdf_base64: base64(await pdfOfPages([[595, 842]])),
        fields: [
          { name: 'constructor', role: 'company', areas: areas(0.1) },
          { name: 'toString', type: 'text', role: 'signer', required: false, areas: areas(0.3) },
          { name: 'Sig', role: 'signer', areas: areas(0.5) },
        ],
      },
    ]

    it('422 when a pre-signed submitter gives no value for a required field named "constructor"', async () => {
      const res = await post(
        t,
        key,
        URL_,
        await fromPdfBody({
          documents: await documents(),
          submitters: [
            { role: 'company', email: 'ceo@example.eu', completed: true, fields: [] },
            { role: 'signer', email: 'ann@example.eu' },
          ],
        }),
      )
      await refused(res, 422, 'invalid_request', /pre-signed submitter needs a value for "constructor"/)
    })

    it('the signer form shows null, not a function, for a field named "toString" without a value', async () => {
      const res = await post(
        t,
        key,
        URL_,
        await fromPdfBody({
          documents: await documents(),
          submitters: [
            { role: 'company', email: 'ceo@example.eu' },
            { role: 'signer', email: 'ann@example.eu' },
          ],
        }),
      )
      assert.equal(res.statusCode, 201, res.body)
      const slug = new URL(res.json().submitters[1].signing_url).pathname.split('/').pop()
      const form = await t.app.inject({ method: 'GET', url: `/s/${slug}/form` })
      assert.equal(form.statusCode, 200, form.body)
      const values = Object.fromEntries(
        form.json().fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
      )
      assert.deepEqual(values, { constructor: null, toString: null, Sig: null })
    })
  })

  describe('documents', () => {
    it('422 invalid_pdf naming the page when a MediaBox or a CropBox has no area', async () => {
      const field = signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }])
      const flat = await pdfOfPages([
        [595, 842],
        [0, 0],
      ])
      const res = await post(
        t,
        key,
        URL_,
        await fromPdfBody({ documents: [{ pdf_base64: base64(flat), fields: [field] }] }),
      )
      await refused(
        res,
        422,
        'invalid_pdf',
        /documents\[0\]\.pdf_base64: page 2 has a MediaBox of 0 × 0 points/,
      )
      const cropped = await pdfOfPages([{ size: [595, 842], cropBox: [100, 100, 100, 400] }])
      const crop = await post(
        t,
        key,
        URL_,
        await fromPdfBody({ documents: [{ pdf_base64: base64(cropped), fields: [field] }] }),
      )
      await refused(crop, 422, 'invalid_pdf', /page 1 has a CropBox of 0 × 300 points/)
    })

    it('422 invalid_pdf_url for a pdf_url (or a file URL) over 2048 characters', async () => {
      const long = `https://example.eu/${'a'.repeat(2030)}.pdf`
      for (const source of ['pdf_url', 'file']) {
        const res = await post(
          t,
          key,
          URL_,
          await fromPdfBody({
            documents: [
              { [source]: long, fields: [signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }])] },
            ],
          }),
        )
        await refused(
          res,
          422,
          'invalid_pdf_url',
          new RegExp(`documents\\[0\\]\\.${source}: the URL is longer than 2048 characters \\(2053\\)`),
        )
      }
    })
  })
})
