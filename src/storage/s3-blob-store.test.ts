import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { after, before, describe, it } from 'node:test'
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../../test/s3-server.ts'
import { ManualClock } from '../lib/clock.ts'
import { attachmentDisposition } from '../lib/content-disposition.ts'
import { blobStoreContract } from './blob-store.contract.ts'
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts'
import { parseS3StorageUrl } from './storage-url.ts'

describe('S3BlobStore (on s3rver)', () => {
  let server: TestS3Server
  const stores: S3BlobStore[] = []
  let count = 0
  before(async () => {
    server = await startS3Server()
  })
  after(async () => {
    for (const store of stores) store.destroy()
    await server.close()
  })
  // Each store gets a prefix of its own in the shared bucket, so tests never see each other's keys.
  const make = (options: Partial<S3BlobStoreOptions> = {}): S3BlobStore => {
    count += 1
    const store = new S3BlobStore({
      ...parseS3StorageUrl(server.url),
      prefix: `test-${count}`,
      credentials: S3RVER_CREDENTIALS,
      ...options,
    })
    stores.push(store)
    return store
  }

  blobStoreContract(() => make())

  describe('presignedGetUrl', () => {
    it('serves the exact bytes as an attachment named after downloadName', async () => {
      const store = make()
      const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))
      await store.put('docs/final.pdf', bytes, 'application/pdf')
      const url = await store.presignedGetUrl(
        'docs/final.pdf',
        new Date(Date.now() + 60_000),
        'Contrat signé "final".pdf',
      )
      assert.ok(url)
      const response = await fetch(url)
      assert.equal(response.status, 200)
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes))
      assert.equal(response.headers.get('content-type'), 'application/pdf')
      assert.equal(
        response.headers.get('content-disposition'),
        `attachment; filename="Contrat signe _final_.pdf"; filename*=UTF-8''Contrat%20sign%C3%A9%20%22final%22.pdf`,
      )
    })

    it('is refused with 403 once expired (signed in the past instead of sleeping)', async () => {
      const clock = new ManualClock(new Date(Date.now() - 10 * 60_000))
      const store = make({ clock })
      await store.put('docs/a.pdf', Buffer.from('%PDF'), 'application/pdf')
      const expired = await store.presignedGetUrl(
        'docs/a.pdf',
        new Date(clock.now().getTime() + 1000),
        'a.pdf',
      )
      const response = await fetch(expired!)
      assert.equal(response.status, 403)
      assert.match(await response.text(), /Request has expired/)
      // Signed at the same past moment but still within its lifetime: served.
      const live = await store.presignedGetUrl(
        'docs/a.pdf',
        new Date(clock.now().getTime() + 3600_000),
        'a.pdf',
      )
      assert.equal((await fetch(live!)).status, 200)
    })

    it('lives whole seconds up to expiresAt, is null past the 7-day SigV4 limit, refuses a past expiresAt', async () => {
      const clock = new ManualClock('2026-03-01T12:00:00.000Z')
      const store = make({ clock })
      const at = (ms: number) => new Date(clock.now().getTime() + ms)
      const url = new URL((await store.presignedGetUrl('k/a.pdf', at(90_900), 'a.pdf'))!)
      assert.equal(url.searchParams.get('X-Amz-Date'), '20260301T120000Z')
      assert.equal(url.searchParams.get('X-Amz-Expires'), '90')
      assert.equal(await store.presignedGetUrl('k/a.pdf', at(8 * 24 * 3600_000), 'a.pdf'), null)
      await assert.rejects(store.presignedGetUrl('k/a.pdf', at(0), 'a.pdf'), /is not ahead/)
    })
  })

  it('names downloads safely: control characters, slashes, quotes and % replaced in the ASCII name', () => {
    assert.equal(attachmentDisposition('audit-log.pdf'), 'attachment; filename="audit-log.pdf"')
    assert.equal(
      attachmentDisposition('a\r\nb/c\\d%20e.pdf'),
      'attachment; filename="a__b_c_d_20e.pdf"; filename*=UTF-8\'\'a__b_c_d%2520e.pdf',
    )
    assert.equal(attachmentDisposition(' \t'), 'attachment; filename="download"')
  })

  it('keeps blobs under its prefix in the bucket', async () => {
    const store = make({ prefix: 'tenant-a' })
    await store.put('x/y.txt', Buffer.from('inside'), 'text/plain')
    assert.equal((await make({ prefix: '' }).get('tenant-a/x/y.txt'))?.toString(), 'inside')
  })

  it('propagates errors other than a missing key (a missing bucket)', async () => {
    const store = make({ bucket: 'no-such-bucket' })
    await assert.rejects(store.get('a/b'), { name: 'NoSuchBucket' })
    await assert.rejects(store.put('a/b', Buffer.from('x'), 'text/plain'), { name: 'NoSuchBucket' })
  })

  it('uploads a 20 MB file from disk and reads it back unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-s3-putfile-'))
    try {
      // Written and hashed a megabyte at a time, each one different, so a misplaced chunk shows.
      const path = join(dir, 'big.pdf')
      const expected = createHash('sha256')
      await pipeline(function* () {
        for (let i = 0; i < 20; i++) {
          const chunk = Buffer.alloc(1024 * 1024, i)
          expected.update(chunk)
          yield chunk
        }
      }, createWriteStream(path))
      const sha256 = expected.digest('hex')

      const store = make()
      assert.deepEqual(await store.putFile('big/file.pdf', path, 'application/pdf'), {
        key: 'big/file.pdf',
        size: 20 * 1024 * 1024,
        sha256,
      })
      const back = createHash('sha256')
      for await (const chunk of (await store.stream('big/file.pdf'))!) back.update(chunk as Buffer)
      assert.equal(back.digest('hex'), sha256)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
