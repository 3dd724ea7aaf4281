import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
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

  describe('putFile', () => {
    const bytes = Buffer.alloc(300_000, 7)
    const sourceIn = async (parent: string) => {
      const dir = await mkdtemp(join(parent, 'paraph-source-'))
      roots.push(dir)
      await writeFile(join(dir, 'in.pdf'), bytes)
      return join(dir, 'in.pdf')
    }

    it('takes the file over without copying it on the same file system', async () => {
      const store = await make()
      const source = await sourceIn(store.root)
      const stored = await store.putFile('a/in.pdf', source, 'application/pdf')
      assert.equal((await stat(source)).ino, (await stat(join(store.root, 'a/in.pdf'))).ino)
      assert.equal(stored.sha256, createHash('sha256').update(bytes).digest('hex'))
      await rm(source)
      assert.ok((await store.get('a/in.pdf'))?.equals(bytes))
      assert.deepEqual(await readdir(join(store.root, 'a')), ['in.pdf'])
    })

    // /dev/shm is a tmpfs on Linux, a file system apart from the temp dir's disk here.
    const otherFs = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev
    it('copies the file from another file system', {
      skip: !otherFs && 'no second file system',
    }, async () => {
      const store = await make()
      const source = await sourceIn('/dev/shm')
      const stored = await store.putFile('b/in.pdf', source, 'application/pdf')
      assert.notEqual((await stat(source)).ino, (await stat(join(store.root, 'b/in.pdf'))).ino)
      assert.equal(stored.size, bytes.length)
      await rm(source)
      assert.ok((await store.get('b/in.pdf'))?.equals(bytes))
    })
  })
})
