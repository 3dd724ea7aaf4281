// A refused sign writes nothing. 100 refused signs with one link added 43.6 MiB of
// signature images before; each refusal here carries two new, incompressible images, and the blob
// store's files and bytes must not change.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { dataUrl, png } from '../../test/fixtures/png.ts'
import { startTestApp, type TestApp } from '../../test/harness.ts'
import {
  type Created,
  createSubmission,
  everyTypeBody,
  FIRST_VALUES,
  guardedBody,
  refused,
  signer,
} from '../../test/signing.ts'

/** Files under `dir` and their bytes, recursively. */
async function usage(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0
  let bytes = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    files++
    bytes += (await stat(join(entry.parentPath, entry.name))).size
  }
  return { files, bytes }
}

/** A 160 × 160 image of random noise: about 100 KB, a new one on every call. */
function noise(): string {
  const bytes = randomBytes(160 * 160 * 3)
  return dataUrl(
    png(160, 160, (x, y) => {
      const at = (y * 160 + x) * 3
      return [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, 255]
    }),
  )
}

describe('POST /s/{slug}/sign: a refused sign stores nothing (issue #20)', () => {
  let t: TestApp
  let key: string
  let blobDir: string
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    blobDir = t.config.storageUrl.slice('file:'.length)
  })
  after(() => t.close())

  it('100 refused signs of every kind leave the blob store’s files and bytes unchanged', async () => {
    const ordered = await createSubmission(t, key, await everyTypeBody(['first', 'second']))
    const cancelled = await createSubmission(t, key, await everyTypeBody(['first']))
    await t.request(key, { method: 'DELETE', url: `/v1/submissions/${cancelled.id}` })
    const guarded = await createSubmission(t, key, await guardedBody(['first'], [0]))
    const done: Created = await createSubmission(t, key, await everyTypeBody(['first']))
    const signed = await signer(t, done.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    const { Date: _date, ...withoutDate } = FIRST_VALUES
    const first = ordered.submitters[0]!
    const kinds = [
      { who: first, values: withoutDate, status: 422, code: 'missing_required_fields' },
      {
        who: first,
        values: { ...FIRST_VALUES, Date: '0000-01-01' },
        status: 422,
        code: 'invalid_field_value',
      },
      { who: first, values: { ...FIRST_VALUES, Nope: 'x' }, status: 422, code: 'invalid_field_value' },
      { who: ordered.submitters[1]!, values: {}, status: 409, code: 'not_your_turn' },
      { who: cancelled.submitters[0]!, values: FIRST_VALUES, status: 410, code: 'submission_not_active' },
      { who: guarded.submitters[0]!, values: FIRST_VALUES, status: 403, code: 'email_2fa_required' },
      { who: done.submitters[0]!, values: FIRST_VALUES, status: 409, code: 'submitter_already_finalized' },
    ]
    const before = await usage(blobDir)
    assert.ok(before.files > 0, 'the documents and the signed images are in the store')
    for (let i = 0; i < 100; i++) {
      const kind = kinds[i % kinds.length]!
      const images =
        kind.who === ordered.submitters[1]
          ? { 'second signature': noise() }
          : { Signature: noise(), Initials: noise() }
      const res = await signer(t, kind.who, 'sign', { values: { ...kind.values, ...images } })
      refused(res, kind.status, kind.code)
    }
    assert.deepEqual(await usage(blobDir), before)
  })
})
