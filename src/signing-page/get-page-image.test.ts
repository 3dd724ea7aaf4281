// GET /s/{slug}/pages/{document}/{page}: who may see a page image, and which caches may keep it
// (docs/api.md#signing).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type CreatedSubmitter,
  createSubmission,
  everyTypeBody,
  guardedBody,
  refused,
  signerPath,
  verifiedSession,
} from '../../test/signing.ts'
import { SESSION_HEADER } from './email-code-session.ts'

describe('GET /s/{slug}/pages/{document}/{page} and /embed/{jwt}/pages/…', () => {
  let t: TestApp
  let key: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
  })
  after(() => t.close())

  const image = (s: CreatedSubmitter, via: 'link' | 'embed' = 'link', headers = {}) =>
    t.app.inject({ method: 'GET', url: `${signerPath(s, via)}/pages/0/1`, headers })
  const cancel = async (id: string) => {
    const res = await t.request(key, { method: 'DELETE', url: `/v1/submissions/${id}` })
    assert.equal(res.statusCode, 200, res.body)
  }

  it('200 kept an hour by the browser alone for a signer asked for no code', async () => {
    const created = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const res = await image(created.submitters[0]!)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/jpeg')
    assert.equal(res.headers['cache-control'], 'private, max-age=3600')
  })

  it('403 then 200 for a guarded signer, never stored by any cache', async () => {
    const created = await createSubmission(t, key, await guardedBody(['first', 'second'], [0]))
    const ann = created.submitters[0]!
    const locked = await image(ann)
    refused(locked, 403, 'email_2fa_required')
    assert.equal(locked.headers['cache-control'], 'no-store')
    const { session } = await verifiedSession(t, ann)
    for (const via of ['link', 'embed'] as const) {
      const res = await image(ann, via, { [SESSION_HEADER]: session })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['cache-control'], 'no-store')
    }
  })

  it('410 submission_not_active once cancelled, by slug and embed token, with or without the code', async () => {
    const created = await createSubmission(t, key, await guardedBody(['first', 'second'], [0]))
    const [ann, bob] = created.submitters as [CreatedSubmitter, CreatedSubmitter]
    const { session } = await verifiedSession(t, ann)
    assert.equal((await image(bob)).statusCode, 200)
    await cancel(created.id)
    for (const [s, headers] of [
      [ann, {}],
      [ann, { [SESSION_HEADER]: session }],
      [bob, {}],
    ] as const) {
      for (const via of ['link', 'embed'] as const) {
        const res = await image(s, via, headers)
        refused(res, 410, 'submission_not_active', /cancelled/)
        assert.equal(res.headers['cache-control'], 'no-store')
      }
    }
  })
})
