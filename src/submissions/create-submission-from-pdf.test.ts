import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { base64, fromPdfBody, post, signerField } from '../../test/documents.ts'
import {
  certifiedPdf,
  encryptedPdf,
  pageTreeRootIsPage,
  pageWithoutMediaBox,
  pdfWithoutHeader,
} from '../../test/fixtures/pdf-features.ts'
import { a4, a4Landscape, croppedPage, legal, letter, rotatedPage } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

const URL_ = '/v1/submissions/from_pdf'

describe('POST /v1/submissions/from_pdf', () => {
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
  const formOf = async (res: { json(): { submitters: Array<{ signing_url: string }> } }) => {
    const slug = new URL(res.json().submitters[0]!.signing_url).pathname.split('/').pop()
    return (await t.app.inject({ method: 'GET', url: `/s/${slug}/form` })).json()
  }

  describe('happy', () => {
    it('201 with exactly the creation shape of §2.2', async () => {
      const res = await create()
      assert.equal(res.statusCode, 201)
      const body = res.json()
      assert.deepEqual(Object.keys(body).sort(), [
        'audit_log_url',
        'created_at',
        'id',
        'status',
        'submitters',
      ])
      assert.match(body.id, /^sub_[0-9A-Za-z]{24}$/)
      assert.equal(body.status, 'sent')
      assert.equal(body.audit_log_url, `${t.config.publicUrl}/v1/submissions/${body.id}/audit_log`)
      assert.equal(body.created_at, '2026-11-22T10:00:00.000Z')
      const [s] = body.submitters
      assert.deepEqual(Object.keys(s).sort(), ['email', 'embed_src', 'id', 'signing_url'])
      assert.match(s.signing_url, new RegExp(`^${t.config.signingUrl}/s/[0-9A-Za-z]{22}$`))
      assert.match(s.embed_src, new RegExp(`^${t.config.signingUrl}/embed/[\\w-]+\\.[\\w-]+\\.[\\w-]+$`))
    })

    it('creates an internal archived template holding the PDF as sent', async () => {
      const res = await create()
      const submission = (
        await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
      ).json()
      const template = (
        await t.request(key, { method: 'GET', url: `/v1/templates/${submission.template_id}` })
      ).json()
      assert.equal(template.status, 'archived')
      assert.equal(template.internal, true)
      assert.equal(template.created_via, 'api')
      assert.deepEqual(template.roles, ['signer'])
      assert.equal(
        template.documents[0].sha256,
        createHash('sha256')
          .update(await a4())
          .digest('hex'),
      )
      const listed = (await t.request(key, { method: 'GET', url: '/v1/templates?limit=100' })).json()
      assert.ok(
        !listed.data.some((x: { id: string }) => x.id === template.id),
        'internal templates are not listed',
      )
    })

    it('journals submission.created then submission.sent, each with an outbox row', async () => {
      const res = await create()
      const events = (
        await t.request(key, { method: 'GET', url: `/v1/events?submission_id=${res.json().id}` })
      ).json().data
      assert.deepEqual(events.map((e: { type: string }) => e.type).reverse(), [
        'submission.created',
        'submission.sent',
      ])
      assert.equal(events[0].data.object.status, 'sent')
      const jobs = await t.deps.db.selectFrom('jobs').select(['kind', 'payload']).execute()
      const published = jobs
        .filter((j) => j.kind === 'events.publish')
        .map((j) => JSON.parse(j.payload).event_id)
      for (const e of events) assert.ok(published.includes(e.id), `outbox row for ${e.type}`)
      const mails = jobs.filter((j) => j.kind === 'mail.send').map((j) => JSON.parse(j.payload))
      assert.ok(
        mails.some((m) => m.to === 'ann@example.eu' && m.text.includes(res.json().submitters[0].signing_url)),
      )
    })

    it('stays created without e-mail, and mails only the first signer in preserved order', async () => {
      assert.equal((await create({ send_email: false })).json().status, 'created')
      const before = (
        await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'mail.send').execute()
      ).length
      const two = await create({
        documents: [
          {
            pdf_base64: base64(await a4()),
            fields: [
              signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }]),
              { name: 'B', role: 'second', areas: [{ page: 1, x: 0.5, y: 0.1, w: 0.1, h: 0.1 }] },
            ],
          },
        ],
        submitters: [
          { role: 'signer', email: 'a@example.eu' },
          { role: 'second', email: 'b@example.eu' },
        ],
      })
      assert.equal(two.statusCode, 201)
      const after = (
        await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'mail.send').execute()
      ).length
      assert.equal(after - before, 1)
    })

    for (const [label, pdf, expected] of [
      ['Letter', letter, [612, 792]],
      ['Legal', legal, [612, 1008]],
      ['A4 landscape', a4Landscape, [841.89, 595.28]],
      ['a page rotated 90°', () => rotatedPage(90), [841.89, 595.28]],
      ['a cropped page', croppedPage, [495, 742]],
    ] as const) {
      it(`reads the real page box of ${label} and places point areas on it`, async () => {
        const [w, h] = expected
        const res = await withDocument({
          pdf_base64: base64(await pdf()),
          fields: [signerField([{ page: 1, x: w - 100, y: h - 50, w: 100, h: 50 }])],
        })
        assert.equal(res.statusCode, 201, res.body)
        const form = await formOf(res)
        assert.deepEqual(form.documents[0].pages, [{ width: w, height: h }])
        const area = form.fields[0].areas[0]
        assert.ok(
          Math.abs(area.x + area.w - 1) < 1e-4 && Math.abs(area.y + area.h - 1) < 1e-4,
          JSON.stringify(area),
        )
        const over = await withDocument({
          pdf_base64: base64(await pdf()),
          fields: [signerField([{ page: 1, x: w - 99, y: h - 50, w: 100, h: 50 }])],
        })
        assert.equal(over.statusCode, 422)
        assert.equal(errorOf(over).code, 'invalid_field_area')
        assert.ok(errorOf(over).message.includes(`${w} x ${h} points`), errorOf(over).message)
      })
    }

    // What viewers open is accepted, measured as MuPDF (and poppler) show it.
    for (const [label, pdf, expected] of [
      [
        'an AES-256 PDF with an empty user password',
        () => encryptedPdf({ userPassword: '' }),
        [595.28, 841.89],
      ],
      [
        'a PDF certified with DocMDP level 2 (form filling and signing allowed)',
        () => certifiedPdf(2),
        [595.28, 841.89],
      ],
      ['a PDF certified with DocMDP level 3', () => certifiedPdf(3), [595.28, 841.89]],
      ['a PDF whose page tree root is a Page', pageTreeRootIsPage, [595, 842]],
      ['a PDF without a %PDF- header', () => pdfWithoutHeader('no-header'), [595, 842]],
      ['a page without a MediaBox (US Letter)', pageWithoutMediaBox, [612, 792]],
    ] as const) {
      it(`201 for ${label}, its page measured`, async () => {
        const [w, h] = expected
        const res = await withDocument({
          pdf_base64: base64(await pdf()),
          fields: [signerField([{ page: 1, x: w - 100, y: h - 50, w: 100, h: 50 }])],
        })
        assert.equal(res.statusCode, 201, res.body)
        assert.deepEqual((await formOf(res)).documents[0].pages, [{ width: w, height: h }])
      })
    }

    it('moves fields declared on submitters to the document with their role', async () => {
      const res = await create({
        documents: [{ pdf_base64: base64(await a4()) }],
        submitters: [
          {
            role: 'buyer',
            email: 'b@example.eu',
            fields: [{ name: 'Buyer sig', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }] }],
          },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      const form = await formOf(res)
      assert.equal(form.fields[0].role, 'buyer')
      assert.equal(form.fields[0].name, 'Buyer sig')
    })

    it('accepts file as base64 and a data URL, and every option of §2.2', async () => {
      const res = await create({
        documents: [
          {
            file: `data:application/pdf;base64,${base64(await a4())}`,
            fields: [signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }])],
          },
        ],
        send_email: true,
        signing_order: 'random',
        expires_at: '2026-12-01T00:00:00Z',
        redirect_url: 'https://example.eu/done',
        bcc_email: 'audit@example.eu',
        reply_to: 'sales@example.eu',
        metadata: { deal: 'D-1', amount: 12, vip: true, none: null },
        message: { subject: 'Please sign', body: 'Thanks' },
      })
      assert.equal(res.statusCode, 201, res.body)
      const got = (await t.request(key, { method: 'GET', url: `/v1/submissions/${res.json().id}` })).json()
      assert.equal(got.signing_order, 'random')
      assert.equal(got.expires_at, '2026-12-01T00:00:00.000Z')
      assert.deepEqual(got.metadata, { deal: 'D-1', amount: 12, vip: true, none: null })
      assert.deepEqual(got.message, { subject: 'Please sign', body: 'Thanks' })
    })

    it('pre-signs a submitter with completed: true and preset values, without mailing them', async () => {
      const png =
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
      const res = await create({
        documents: [
          {
            pdf_base64: base64(await a4()),
            fields: [
              signerField([{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }]),
              { name: 'Company', role: 'company', areas: [{ page: 1, x: 0.5, y: 0.1, w: 0.2, h: 0.05 }] },
            ],
          },
        ],
        submitters: [
          {
            role: 'company',
            email: 'ceo@example.eu',
            completed: true,
            fields: [{ name: 'Company', readonly: true, default_value: png }],
          },
          { role: 'signer', email: 'ann@example.eu' },
        ],
      })
      assert.equal(res.statusCode, 201, res.body)
      const submitter = (
        await t.request(key, { method: 'GET', url: `/v1/submitters/${res.json().submitters[0].id}` })
      ).json()
      assert.equal(submitter.status, 'pre_signed')
      assert.equal(submitter.values.Company, png)
      const events = (
        await t.request(key, {
          method: 'GET',
          url: `/v1/events?type=submitter.pre_signed&submission_id=${res.json().id}`,
        })
      ).json()
      assert.equal(events.data.length, 1)
      assert.equal(events.data[0].data.source, 'api')
      const mails = await t.deps.db
        .selectFrom('jobs')
        .select('payload')
        .where('kind', '=', 'mail.send')
        .execute()
      assert.ok(!mails.some((m) => JSON.parse(m.payload).to === 'ceo@example.eu'))
      assert.equal(
        (await formOf({ json: () => ({ submitters: [res.json().submitters[1]] }) })).state,
        'ready',
        'pre-signed first signer does not block the second',
      )
    })
  })

  describe('idempotency', () => {
    it('replays the creation and creates one submission only', async () => {
      const body = await fromPdfBody()
      const first = await post(t, key, URL_, body, 'same-key')
      const second = await post(t, key, URL_, body, 'same-key')
      assert.equal(second.headers['idempotent-replayed'], 'true')
      assert.equal(second.body, first.body)
      const rows = await t.deps.db
        .selectFrom('submissions')
        .select('id')
        .where('id', '=', first.json().id)
        .execute()
      assert.equal(rows.length, 1)
    })
  })
})
