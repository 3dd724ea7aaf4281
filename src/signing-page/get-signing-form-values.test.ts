// `form` in docs/signing.md#see-what-you-sign: a later signer sees what the earlier ones entered.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { base64, post } from '../../test/documents.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  type CreatedSubmitter,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  SIGNATURE,
  signer,
} from '../../test/signing.ts'
import { pngDataUrlBytes } from '../documents/field-values.ts'

type Field = { name: string; role: string; value: unknown; readonly: boolean }
const AREA = { page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }
const at = (y: number) => ({ ...AREA, y })

describe('GET /s/{slug}/form: the values of the other signers', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const fieldsOf = async (s: CreatedSubmitter, via: 'link' | 'embed' = 'link') => {
    const res = await signer(t, s, 'form', undefined, via)
    assert.equal(res.statusCode, 200, res.body)
    return new Map<string, Field>(res.json().fields.map((f: Field) => [f.name, f]))
  }
  /** A value that must be the URL of the PNG whose data URL is `dataUrl`. */
  const assertImageUrl = async (value: unknown, dataUrl: string, what: string) => {
    assert.equal(typeof value, 'string', what)
    assert.ok((value as string).startsWith(`${t.config.publicUrl}/files/`), `${what}: ${value}`)
    const res = await t.app.inject({ method: 'GET', url: new URL(value as string).pathname })
    assert.equal(res.statusCode, 200, `${what}: ${res.body}`)
    assert.equal(res.headers['content-type'], 'image/png')
    assert.ok(res.rawPayload.equals(pngDataUrlBytes(dataUrl)!), `${what}: the very PNG`)
  }

  it('200 every type the first signer entered, for the second, by slug and by embed token; images as fetchable URLs', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const [first, second] = created.submitters as [CreatedSubmitter, CreatedSubmitter]
    const waiting = await fieldsOf(second)
    for (const name of Object.keys(FIRST_VALUES)) assert.equal(waiting.get(name)!.value, null, name)

    const signed = await signer(t, first, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    for (const via of ['link', 'embed'] as const) {
      const fields = await fieldsOf(second, via)
      for (const name of ['Date', 'Name', 'Amount', 'Agree', 'Plan', 'Country'] as const) {
        assert.deepEqual(fields.get(name)!.value, FIRST_VALUES[name], `${via}: ${name}`)
        assert.equal(fields.get(name)!.role, 'first', 'still marked as the first signer’s')
      }
      await assertImageUrl(fields.get('Signature')!.value, FIRST_VALUES.Signature, `${via}: Signature`)
      await assertImageUrl(fields.get('Initials')!.value, FIRST_VALUES.Initials, `${via}: Initials`)
      assert.equal(fields.get('second signature')!.value, null, 'not signed yet')
    }
  })

  it("200 a pre-signed party's signature and values, the signature as a URL rather than inlined", async () => {
    const res = await post(t, key, '/v1/submissions/from_pdf', {
      documents: [
        {
          name: 'Offer',
          pdf_base64: base64(await a4()),
          fields: [
            { name: 'Company signs', role: 'company', areas: [at(0.6)] },
            { name: 'Company name', type: 'text', role: 'company', areas: [at(0.7)] },
            { name: 'Client signs', role: 'client', areas: [at(0.8)] },
          ],
        },
      ],
      submitters: [
        {
          role: 'company',
          email: 'ceo@example.eu',
          completed: true,
          fields: [
            { name: 'Company signs', readonly: true, default_value: SIGNATURE },
            { name: 'Company name', default_value: 'Acme Łódź SA' },
          ],
        },
        { role: 'client', email: 'client@example.eu' },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const client = (res.json() as Created).submitters[1]!
    const form = await signer(t, client, 'form')
    assert.ok(!form.body.includes('data:image/png'), 'no image inlined in the form')
    const fields = await fieldsOf(client)
    assert.equal(fields.get('Company name')!.value, 'Acme Łódź SA')
    await assertImageUrl(fields.get('Company signs')!.value, SIGNATURE, 'pre-signed signature')
    await assertImageUrl((await fieldsOf(client)).get('Company signs')!.value, SIGNATURE, 'read again')
  })

  it('200 a read-only value the sender set for a later signer, but not an editable one; own images as given', async () => {
    const created = await createSubmission(t, key, {
      documents: [
        {
          name: 'Order',
          pdf_base64: base64(await a4()),
          fields: [
            { name: 'Buyer signs', role: 'buyer', areas: [at(0.1)] },
            { name: 'Seller signs', role: 'seller', areas: [at(0.2)] },
            { name: 'Price', type: 'number', role: 'seller', readonly: true, areas: [at(0.3)] },
            { name: 'Delivery', type: 'text', role: 'seller', areas: [at(0.4)] },
          ],
        },
      ],
      submitters: [
        {
          role: 'buyer',
          email: 'buyer@example.eu',
          fields: [{ name: 'Buyer signs', default_value: SIGNATURE }],
        },
        {
          role: 'seller',
          email: 'seller@example.eu',
          fields: [
            { name: 'Price', default_value: 990 },
            { name: 'Delivery', default_value: 'May, perhaps' },
          ],
        },
      ],
    })
    const fields = await fieldsOf(created.submitters[0]!)
    assert.equal(fields.get('Price')!.value, 990, 'fixed by the sender: part of what the buyer signs')
    assert.equal(fields.get('Delivery')!.value, null, 'the seller may still change it')
    assert.equal(fields.get('Buyer signs')!.value, SIGNATURE, 'the signer’s own prefill, sent back with sign')
  })
})
