import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { blobStoreContract } from './blob-store.contract.ts'
import { FsBlobStore } from './fs-blob-store.ts'

describe('FsBlobStore', () => {
  const roots: string[] = []
  after(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true })
  })
  const make = async () => {
    const root = await mkdtemp(join(tmpdir(), 'paraph-blobs-'))
    roots.push(root)
    return new FsBlobStore(root)
  }

  blobStoreContract(make)

  it('leaves no temporary file behind', async () => {
    const store = await make()
    await store.put('dir/file.pdf', Buffer.from('%PDF'), 'application/pdf')
    assert.deepEqual(await readdir(join(store.root, 'dir')), ['file.pdf'])
  })
})
