import assert from 'node:assert/strict'
import { readdir } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { base64, fromPdfBody, post, signerField } from '../../test/documents.ts'
import { garbagePdf, notAPdf, truncatedPdf } from '../../test/fixtures/hostile-pdfs.ts'
import { certifiedPdf, encryptedPdf } from '../../test/fixtures/pdf-features.ts'
import { a4, pdfOfPages } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const URL_ = '/v1/submissions/from_pdf'

describe('POST /v1/submissions/from_pdf: refusals', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const create = async (overrides: Record<string, unknown> = {}) =>
    post(t, key, URL_, await fromPdfBody(overrides))
  const withDocument = async (document: Record<string, unknown>, submitters?: unknown[]) =>
    post(t, key, URL_, await fromPdfBody({ documents: [document], ...(submitters ? { submitters } : {}) }))

  describe('errors', () => {
    const pdfError = async (document: Record<string, unknown>, code: string, pattern: RegExp) => {
      const res = await withDocument({
        fields: [signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }])],
        ...document,
      })
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(errorOf(res).code, code)
      assert.match(errorOf(res).message, pattern)
    }

    it('422 invalid_pdf for bad base64, another format, an unparsable or a password-protected PDF', async () => {
      await pdfError(
        { pdf_base64: 'not base64!!' },
        'invalid_pdf',
        /documents\[0\]\.pdf_base64: not valid base64/,
      )
      await pdfError(
        { pdf_base64: base64(await notAPdf()) },
        'invalid_pdf',
        /^documents\[0\]\.pdf_base64: the file is not a PDF: it is a ZIP archive \(a DOCX/,
      )
      await pdfError(
        { pdf_base64: base64(await truncatedPdf()) },
        'invalid_pdf',
        /could not be parsed|not|PDF/,
      )
      await pdfError({ pdf_base64: base64(await garbagePdf()) }, 'invalid_pdf', /PDF/)
      await pdfError(
        { pdf_base64: base64(await encryptedPdf({ userPassword: 'user-secret' })) },
        'invalid_pdf',
        /^documents\[0\]\.pdf_base64: the PDF is protected by a password; remove the password and send it again\.$/,
      )
    })

    it('422 invalid_pdf not_pdf for a file without a %PDF- header in which no PDF can be read', async () => {
      await pdfError(
        { pdf_base64: base64(Buffer.from('Dear signer, the contract follows.\n'.repeat(40))) },
        'invalid_pdf',
        /^documents\[0\]\.pdf_base64: the file is not a PDF: it has no %PDF- header and no PDF pages could be read from it\.$/,
      )
    })

    it('422 invalid_pdf for a PDF certified against any change (DocMDP level 1), saying why', async () => {
      await pdfError(
        { pdf_base64: base64(await certifiedPdf(1)) },
        'invalid_pdf',
        /^documents\[0\]\.pdf_base64: the PDF is certified by its author against any change \(DocMDP level 1\); signing it would break that certification\.$/,
      )
    })

    it('422 invalid_request for a prefilled date outside 1900-01-01…2200-12-31, naming its path (issue #20)', async () => {
      const date = {
        name: 'When',
        type: 'date',
        role: 'signer',
        areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }],
      }
      for (const value of ['0000-01-01', '2201-01-01']) {
        const res = await withDocument({ pdf_base64: base64(await a4()), fields: [date] }, [
          { role: 'signer', email: 'signer@example.eu', fields: [{ name: 'When', default_value: value }] },
        ])
        assert.equal(res.statusCode, 422, res.body)
        assert.equal(errorOf(res).code, 'invalid_request')
        assert.equal(
          errorOf(res).message,
          `submitters[0].fields[0]: must be a date from 1900-01-01 to 2200-12-31 (got "${value}").`,
        )
      }
    })

    it('422 invalid_request when a document has no source or two', async () => {
      await pdfError({}, 'invalid_request', /exactly one of pdf_base64, file or pdf_url/)
      await pdfError(
        { pdf_base64: base64(await a4()), pdf_url: 'https://example.eu/x.pdf' },
        'invalid_request',
        /exactly one/,
      )
    })

    it('422 invalid_field_area for a missing page, with 0-indexed detection', async () => {
      const two = base64(
        await pdfOfPages([
          [595, 842],
          [595, 842],
        ]),
      )
      await pdfError(
        { pdf_base64: two, fields: [signerField([{ page: 3, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }])] },
        'invalid_field_area',
        /page 3.*2 page/,
      )
      await pdfError(
        {
          pdf_base64: two,
          fields: [
            signerField([{ page: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }]),
            { name: 'B', role: 'signer', areas: [{ page: 2, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] },
          ],
        },
        'invalid_field_area',
        /page 3 \(page 2 read as 0-indexed\)/,
      )
    })

    it('422 submitter_role_not_in_template for a role no field has', async () => {
      const res = await create({ submitters: [{ role: 'stranger', email: 'x@example.eu' }] })
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'submitter_role_not_in_template')
      assert.match(errorOf(res).message, /"stranger".*"signer"/)
    })

    it('422 phone_2fa_not_supported, before any PDF work', async () => {
      const res = await create({
        submitters: [{ role: 'signer', email: 'a@example.eu', require_phone_2fa: true }],
      })
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'phone_2fa_not_supported')
    })

    for (const [label, overrides, pattern] of [
      ['no submitters', { submitters: [] }, /submitters: must have at least 1 item/],
      [
        '51 submitters',
        { submitters: Array.from({ length: 51 }, (_, i) => ({ role: `r${i}`, email: `a${i}@example.eu` })) },
        /at most 50 items/,
      ],
      ['expires_at in the past', { expires_at: '2026-11-22T09:59:59Z' }, /expires_at: must be in the future/],
      [
        'a long redirect_url',
        { redirect_url: `https://example.eu/${'a'.repeat(2048)}` },
        /redirect_url: must be at most 2048 characters/,
      ],
      ['a bad bcc_email', { bcc_email: 'not-an-email' }, /bcc_email: must be an e-mail address/],
      [
        'a long reply_to',
        { reply_to: `${'a'.repeat(320)}@example.eu` },
        /reply_to: must be at most 320 characters/,
      ],
      ['a long metadata key', { metadata: { ['k'.repeat(101)]: 1 } }, /metadata: key/],
      [
        'a long metadata value',
        { metadata: { k: 'v'.repeat(2001) } },
        /metadata\.k: must be at most 2000 characters/,
      ],
      ['a nested metadata value', { metadata: { k: { nested: true } } }, /metadata\.k/],
      [
        'a long subject',
        { message: { subject: 's'.repeat(201) } },
        /message\.subject: must be at most 200 characters/,
      ],
      [
        'a long body',
        { message: { body: 'b'.repeat(5001) } },
        /message\.body: must be at most 5000 characters/,
      ],
      [
        'an unknown variable in the subject',
        { message: { subject: 'Sign, {{signer.name}}' } },
        /^message\.subject: unknown variable \{\{signer\.name\}\} \(variables: \{\{submitter\.name\}\}, /,
      ],
      [
        'an unknown variable in the body, after a known one',
        { message: { body: 'Hi {{submitter.name}}, {{ link }}' } },
        /^message\.body: unknown variable \{\{ link \}\} \(variables: .*\{\{submitter\.signing_url\}\}/,
      ],
      ['an unknown signing_order', { signing_order: 'alphabetical' }, /signing_order: must be one of/],
      ['a status in the body', { status: 'completed' }, /status: is not an accepted field/],
      [
        'a submitter without email',
        { submitters: [{ role: 'signer' }] },
        /submitters\[0\]\.email: is required/,
      ],
      [
        'two submitters with one role',
        {
          submitters: [
            { role: 'signer', email: 'a@example.eu' },
            { role: 'signer', email: 'b@example.eu' },
          ],
        },
        /already the role of submitters\[0\]/,
      ],
    ] as const) {
      it(`422 for ${label}, naming the field as param`, async () => {
        const res = await create(overrides as Record<string, unknown>)
        assert.equal(res.statusCode, 422, res.body)
        const { code, message, param } = errorOf(res)
        assert.equal(code, 'invalid_request')
        assert.match(message, pattern)
        assert.ok(param && message.startsWith(`${param}: `), `param ${param} for ${message}`)
      })
    }

    it('413 request_too_large above 4.5 MB and 400 without Idempotency-Key', async () => {
      const huge = await fromPdfBody({ documents: [{ pdf_base64: 'A'.repeat(4.6 * 1024 * 1024) }] })
      const res = await post(t, key, URL_, huge)
      assert.equal(res.statusCode, 413)
      assert.equal(errorOf(res).code, 'request_too_large')
      const noKey = await t.request(key, { method: 'POST', url: URL_, payload: await fromPdfBody() })
      assert.equal(noKey.statusCode, 400)
      assert.equal(errorOf(noKey).code, 'idempotency_key_required')
    })

    it('leaves nothing behind when a request is refused after storing PDFs', async () => {
      const count = async () => (await t.deps.db.selectFrom('templates').select('id').execute()).length
      const before = await count()
      const res = await create({ submitters: [{ role: 'nobody', email: 'x@example.eu' }] })
      assert.equal(res.statusCode, 422)
      assert.equal(await count(), before)
    })

    it('keeps no blob of any document when a later one is refused, even one stored meanwhile', async () => {
      const blobs = async () => {
        const root = (t.deps.blobs as { root?: string }).root
        assert.ok(root, 'the tests run on the filesystem store')
        const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
        return entries.filter((entry) => entry.isFile()).length
      }
      const before = await blobs()
      const field = signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }])
      const res = await post(
        t,
        key,
        URL_,
        await fromPdfBody({
          documents: [
            { pdf_base64: base64(await a4()), fields: [field] },
            { pdf_base64: base64(await encryptedPdf({ userPassword: 'user-secret' })) },
          ],
        }),
      )
      assert.equal(res.statusCode, 422, res.body)
      assert.match(errorOf(res).message, /documents\[1\]\.pdf_base64: the PDF is protected by a password/)
      assert.equal(await blobs(), before)
    })
  })
})
