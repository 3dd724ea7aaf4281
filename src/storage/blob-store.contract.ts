// The behaviour every BlobStore must have; run against each implementation by its own test file.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { it } from 'node:test'
import type { BlobStore } from './blob-store.ts'

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

export function blobStoreContract(makeStore: () => Promise<BlobStore> | BlobStore): void {
  it('stores bytes and returns them, with size and SHA-256', async () => {
    const store = await makeStore()
    const bytes = Buffer.from('%PDF-1.7 hello')
    const stored = await store.put('acct_x/test/a.pdf', bytes, 'application/pdf')
    assert.deepEqual(stored, {
      key: 'acct_x/test/a.pdf',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    })
    assert.deepEqual(await store.get('acct_x/test/a.pdf'), bytes)
    assert.equal(await store.exists('acct_x/test/a.pdf'), true)
  })

  it('streams large blobs unchanged', async () => {
    const store = await makeStore()
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7)
    bytes[12345] = 1
    await store.put('big/blob.bin', bytes, 'application/octet-stream')
    const stream = await store.stream('big/blob.bin')
    assert.ok(stream)
    assert.ok((await collect(stream)).equals(bytes))
  })

  it('answers null / false for a missing key and deletes idempotently', async () => {
    const store = await makeStore()
    assert.equal(await store.get('missing/key'), null)
    assert.equal(await store.stream('missing/key'), null)
    assert.equal(await store.exists('missing/key'), false)
    await store.put('gone/soon', Buffer.from('x'), 'text/plain')
    await store.delete('gone/soon')
    await store.delete('gone/soon')
    assert.equal(await store.exists('gone/soon'), false)
  })

  it('deletes a folder of keys whole, at any depth, and nothing beside it', async () => {
    const store = await makeStore()
    const keys = ['acct/test/submissions/sub_1/final-1.pdf', 'acct/test/submissions/sub_1/values/sbm_1/a.png']
    for (const key of keys) await store.put(key, Buffer.from(key), 'application/octet-stream')
    await store.put('acct/test/submissions/sub_10/final-1.pdf', Buffer.from('kept'), 'application/pdf')
    await store.put('acct/test/submissions/sub_1.pdf', Buffer.from('kept too'), 'application/pdf')
    assert.equal(await store.deleteFolder('acct/test/submissions/sub_1'), 2)
    for (const key of keys) assert.equal(await store.exists(key), false, key)
    assert.equal(await store.exists('acct/test/submissions/sub_10/final-1.pdf'), true)
    assert.equal(await store.exists('acct/test/submissions/sub_1.pdf'), true)
    assert.equal(await store.deleteFolder('acct/test/submissions/sub_1'), 0, 'a second run finds nothing')
    assert.equal(await store.deleteFolder('no/such/folder'), 0)
  })

  it('replaces a blob whole on a second put', async () => {
    const store = await makeStore()
    await store.put('same/key', Buffer.from('first version, longer'), 'text/plain')
    await store.put('same/key', Buffer.from('second'), 'text/plain')
    assert.equal((await store.get('same/key'))?.toString(), 'second')
  })

  it('stores a file from disk, streamed, with size and SHA-256', async () => {
    const store = await makeStore()
    const dir = await mkdtemp(join(tmpdir(), 'paraph-putfile-'))
    try {
      const bytes = Buffer.alloc(2 * 1024 * 1024 + 7, 3)
      await writeFile(join(dir, 'in.pdf'), bytes)
      const stored = await store.putFile('files/in.pdf', join(dir, 'in.pdf'), 'application/pdf')
      assert.equal(stored.size, bytes.length)
      assert.equal(stored.sha256, createHash('sha256').update(bytes).digest('hex'))
      assert.ok((await store.get('files/in.pdf'))?.equals(bytes))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses keys that could escape the store', async () => {
    const store = await makeStore()
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '', 'a/./b']) {
      await assert.rejects(store.put(key, Buffer.from('x'), 'text/plain'), /Invalid blob key/)
    }
  })
}
