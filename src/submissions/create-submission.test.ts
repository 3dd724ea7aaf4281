// POST /v1/submissions — from a template.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTemplateFor, post } from '../../test/documents.ts'
import { errorOf, startTestApp, type TestApp } from '../../test/harness.ts'

describe('POST /v1/submissions', () => {
  let t: TestApp
  let keys: Awaited<ReturnType<TestApp['account']>>
  let templateId: string
  before(async () => {
    t = await startTestApp()
    keys = await t.account()
    templateId = await createTemplateFor(t, keys.testKey)
  })
  after(() => t.close())

  const submitters = [
    { role: 'first', email: 'One@Example.eu', fields: { 'First name': 'Ann' } },
    { role: 'second', email: 'two@example.eu' },
  ]
  const create = (body: Record<string, unknown>, key = keys.testKey) =>
    post(t, key, '/v1/submissions', { template_id: templateId, submitters, ...body })

  it('201 from a template, with prefilled values kept on the submitter', async () => {
    const res = await create({})
    assert.equal(res.statusCode, 201, res.body)
    const [first] = res.json().submitters
    assert.equal(first.email, 'one@example.eu', 'addresses are stored in lower case')
    const submitter = (
      await t.request(keys.testKey, { method: 'GET', url: `/v1/submitters/${first.id}` })
    ).json()
    assert.deepEqual(submitter.values, { 'First name': 'Ann' })
    const submission = (
      await t.request(keys.testKey, { method: 'GET', url: `/v1/submissions/${res.json().id}` })
    ).json()
    assert.equal(submission.template_id, templateId)
  })

  it('422 template_not_found for an unknown template or one of another environment', async () => {
    const cases: Array<[string, string]> = [
      [`tpl_${'a'.repeat(24)}`, keys.testKey],
      [templateId, keys.liveKey],
    ]
    for (const [id, key] of cases) {
      const res = await post(t, key, '/v1/submissions', { template_id: id, submitters })
      assert.equal(res.statusCode, 422)
      assert.equal(errorOf(res).code, 'template_not_found')
    }
  })

  it('422 invalid_request for a malformed template_id', async () => {
    const res = await create({ template_id: 'tpl_nope' })
    assert.equal(res.statusCode, 422)
    assert.match(errorOf(res).message, /^template_id:/)
  })

  it('422 template_archived', async () => {
    const archived = await createTemplateFor(t, keys.testKey)
    await t.request(keys.testKey, { method: 'DELETE', url: `/v1/templates/${archived}` })
    const res = await create({ template_id: archived })
    assert.equal(errorOf(res).code, 'template_archived')
  })

  it('422 submitter_role_not_in_template naming the roles', async () => {
    const res = await create({ submitters: [{ role: 'third', email: 'x@example.eu' }, ...submitters] })
    assert.equal(errorOf(res).code, 'submitter_role_not_in_template')
    assert.match(errorOf(res).message, /"third".*"first", "second"/)
  })

  it('422 when a role of the template has no submitter', async () => {
    const res = await create({ submitters: [submitters[0]] })
    assert.equal(res.statusCode, 422)
    assert.match(errorOf(res).message, /no submitter for role\(s\) "second"/)
  })

  it("422 for a prefill of an unknown field, of another role's field, or of the wrong type", async () => {
    for (const [fields, pattern] of [
      [{ Nope: 'x' }, /submitters\[0\]\.fields\.Nope: no field "Nope"/],
      [{ 'Second signature': 'x' }, /belongs to role "second"/],
      [{ 'First name': 12 }, /must be a string/],
      [{ 'First signature': 'not an image' }, /PNG data URL/],
    ] as const) {
      const res = await create({ submitters: [{ ...submitters[0], fields }, submitters[1]] })
      assert.equal(res.statusCode, 422, JSON.stringify(fields))
      assert.equal(errorOf(res).code, 'invalid_request')
      assert.match(errorOf(res).message, pattern)
    }
  })

  it('422 phone_2fa_not_supported', async () => {
    const res = await create({ submitters: [{ ...submitters[0], require_phone_2fa: true }, submitters[1]] })
    assert.equal(errorOf(res).code, 'phone_2fa_not_supported')
  })
})
