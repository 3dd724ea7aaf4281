// POST /v1/verify on real finals and audit trails: made by the worker from a submission whose signer
// was pre-signed, downloaded through the API, then changed, re-saved by qpdf, or sent by another
// account. Another instance's seal is a second app's final: its own data directory, hence its own
// self-signed sealing certificate (and its own PARAPH_SECRET).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { base64, post } from '../../test/documents.ts'
import { certifiedPdf } from '../../test/fixtures/certified-pdf.ts'
import { garbagePdf, notAPdf, truncatedPdf } from '../../test/fixtures/hostile-pdfs.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { errorOf, startTestApp, type TestApp, whatHappened } from '../../test/harness.ts'
import { type Sealed, sealedSubmission } from '../../test/sealed-submission.ts'
import { closePdfFinalizer } from '../pdf/finalizer/finalize-pdf.ts'

const execFileAsync = promisify(execFile)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The file as qpdf writes it back: same content, other bytes. */
async function resavedByQpdf(pdf: Buffer): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-verify-'))
  try {
    await writeFile(join(dir, 'in.pdf'), pdf)
    await execFileAsync('qpdf', [join(dir, 'in.pdf'), join(dir, 'out.pdf')])
    return await readFile(join(dir, 'out.pdf'))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function verifyRaw(t: TestApp, key: string, pdf: Uint8Array) {
  return t.request(key, {
    method: 'POST',
    url: '/v1/verify',
    payload: Buffer.from(pdf),
    headers: { 'content-type': 'application/pdf' },
  })
}

async function verdict(t: TestApp, key: string, pdf: Uint8Array) {
  const res = await verifyRaw(t, key, pdf)
  assert.equal(res.statusCode, 200, whatHappened(t, res))
  const answer = res.json()
  assert.equal(answer.sha256, sha256(pdf))
  return answer
}

function assertInvalid(answer: Record<string, unknown>, reason: string): void {
  assert.equal(answer.valid, false, JSON.stringify(answer))
  assert.equal(answer.reason, reason, JSON.stringify(answer))
  assert.equal(answer.submission_id, null)
  assert.equal(answer.document, null)
  assert.equal(answer.sealed_at, null)
  assert.equal(answer.signature_level, null)
  assert.match(String(answer.message), /\.$/)
}

describe('POST /v1/verify', () => {
  let t: TestApp
  let key: string
  let sealed: Sealed
  before(async () => {
    t = await startTestApp()
    key = (await t.account()).testKey
    sealed = await sealedSubmission(t, key)
  })
  after(async () => {
    closePdfFinalizer()
    await t.close()
  })

  describe('200 valid', () => {
    it('200 valid: the final PDF, sent raw, names its submission, the seal time and the level', async () => {
      const answer = await verdict(t, key, sealed.final)
      assert.deepEqual(answer, {
        object: 'verification',
        valid: true,
        submission_id: sealed.id,
        document: 'final',
        sha256: sha256(sealed.final),
        sealed_at: sealed.completedAt,
        signature_level: 'ses',
        reason: null,
        message: `This PDF is the final document of submission ${sealed.id}, unchanged since it was sealed.`,
      })
    })

    it('200 valid: the audit trail, sent as base64 JSON', async () => {
      const res = await post(t, key, '/v1/verify', { pdf: base64(sealed.audit) })
      assert.equal(res.statusCode, 200, whatHappened(t, res))
      const answer = res.json()
      assert.equal(answer.valid, true)
      assert.equal(answer.submission_id, sealed.id)
      assert.equal(answer.document, 'audit_trail')
      assert.equal(answer.sha256, sha256(sealed.audit))
      assert.equal(answer.sealed_at, sealed.completedAt)
    })

    it('200 valid: still after the submission is purged (its hashes stay)', async () => {
      const other = await sealedSubmission(t, key)
      const purged = await t.request(key, { method: 'POST', url: `/v1/submissions/${other.id}/purge` })
      assert.equal(purged.statusCode, 200, purged.body)
      assert.ok(purged.json().purged_at)
      for (const [pdf, document] of [
        [other.final, 'final'],
        [other.audit, 'audit_trail'],
      ] as const) {
        const answer = await verdict(t, key, pdf)
        assert.equal(answer.valid, true, JSON.stringify(answer))
        assert.equal(answer.submission_id, other.id)
        assert.equal(answer.document, document)
        assert.equal(answer.sealed_at, other.completedAt)
      }
    })
  })

  describe('200 invalid', () => {
    it('altered: one byte of the final changed', async () => {
      const changed = Buffer.from(sealed.final)
      // In the first line's binary comment: the header and the seal stay as they were.
      changed[12] = changed[12]! ^ 0x01
      assertInvalid(await verdict(t, key, changed), 'altered')
    })

    it('altered: the final re-saved by qpdf (same content, other bytes)', async () => {
      const resaved = await resavedByQpdf(sealed.final)
      assert.notEqual(sha256(resaved), sha256(sealed.final))
      assertInvalid(await verdict(t, key, resaved), 'altered')
    })

    it("altered: another account's key, with no word of the submission", async () => {
      const stranger = (await t.account('Stranger')).testKey
      const answer = await verdict(t, stranger, sealed.final)
      assertInvalid(answer, 'altered')
      assert.doesNotMatch(JSON.stringify(answer), new RegExp(sealed.id))
    })

    it('altered: the same account in its other environment (live key, test submission)', async () => {
      const { liveKey } = await t.account('Two environments')
      const own = await sealedSubmission(t, (await t.account('unused')).testKey)
      assertInvalid(await verdict(t, liveKey, own.final), 'altered')
    })

    it('not_sealed: a PDF with no signature', async () => {
      assertInvalid(await verdict(t, key, await a4()), 'not_sealed')
    })

    it('sealed_elsewhere: a PDF signed with another certificate', async () => {
      assertInvalid(await verdict(t, key, await certifiedPdf(2)), 'sealed_elsewhere')
    })

    it('sealed_elsewhere: the final of another instance (its own sealing certificate)', async () => {
      const elsewhere = await startTestApp()
      try {
        const theirs = await sealedSubmission(elsewhere, (await elsewhere.account()).testKey)
        assertInvalid(await verdict(t, key, theirs.final), 'sealed_elsewhere')
        assertInvalid(await verdict(t, key, theirs.audit), 'sealed_elsewhere')
      } finally {
        await elsewhere.close()
      }
    })

    it('not_a_pdf: garbage, a ZIP, bytes without the %PDF- header', async () => {
      for (const bytes of [await notAPdf(), Buffer.from('hello'), sealed.final.subarray(2000)]) {
        assertInvalid(await verdict(t, key, bytes), 'not_a_pdf')
      }
    })
  })

  describe('hostile bodies answer 200 invalid, quickly', () => {
    it('a truncated PDF, a header then noise: not_sealed', async () => {
      assertInvalid(await verdict(t, key, await truncatedPdf()), 'not_sealed')
      assertInvalid(await verdict(t, key, await garbagePdf()), 'not_sealed')
    })

    it('a huge /Contents hex, an unterminated one, and thousands of /ByteRange: sealed_elsewhere', async () => {
      const head = Buffer.from('%PDF-1.7\n1 0 obj << /ByteRange [0 1 2 3] /Contents <')
      const huge = Buffer.concat([head, Buffer.alloc(20 * 1024 * 1024, 'ab'), Buffer.from('> >>\n')])
      const unterminated = Buffer.concat([head, Buffer.alloc(1024 * 1024, '0')])
      const many = Buffer.concat([
        Buffer.from('%PDF-1.7\n'),
        Buffer.alloc(8 * 1024 * 1024, '/ByteRange /Contents <00> /Contents << /Contents '),
      ])
      for (const bytes of [huge, unterminated, many]) {
        const started = performance.now()
        assertInvalid(await verdict(t, key, bytes), 'sealed_elsewhere')
        assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`)
      }
    })

    it("sealed_elsewhere, not altered: the final with its seal's CMS zeroed", async () => {
      const text = sealed.final.toString('latin1')
      const start = [...text.matchAll(/\/Contents\s*<(?!<)/g)].at(-1)!
      const from = start.index + start[0].length
      const end = sealed.final.indexOf('>', from)
      assert.ok(end - from > 1000, 'the seal is the last /Contents hex string')
      const zeroed = Buffer.from(sealed.final)
      zeroed.fill('0', from, end)
      assertInvalid(await verdict(t, key, zeroed), 'sealed_elsewhere')
    })
  })

  describe('4xx', () => {
    it('422 invalid_request naming pdf: an empty body, raw or JSON', async () => {
      for (const res of [
        await verifyRaw(t, key, Buffer.alloc(0)),
        await post(t, key, '/v1/verify', { pdf: '' }),
        await post(t, key, '/v1/verify', {}),
        await post(t, key, '/v1/verify', { pdf: '====' }),
      ]) {
        assert.equal(res.statusCode, 422, res.body)
        assert.equal(errorOf(res).code, 'invalid_request')
        assert.equal(errorOf(res).param, 'pdf', res.body)
      }
    })

    it('413 request_too_large: a body over 50 MiB', async () => {
      const res = await verifyRaw(t, key, Buffer.alloc(50 * 1024 * 1024 + 1, 0x20))
      assert.equal(res.statusCode, 413, res.body)
      assert.equal(errorOf(res).code, 'request_too_large')
    })

    it('415 unsupported_content_type: a body of another type', async () => {
      const res = await t.request(key, {
        method: 'POST',
        url: '/v1/verify',
        payload: sealed.final,
        headers: { 'content-type': 'application/octet-stream' },
      })
      assert.equal(res.statusCode, 415, res.body)
    })

    it('401 without a key', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/verify',
        payload: sealed.final,
        headers: { 'content-type': 'application/pdf' },
      })
      assert.equal(res.statusCode, 401)
    })
  })
})
