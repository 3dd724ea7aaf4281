import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { link, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { hashFile } from '../lib/hash-file.ts'
import { randomBase62 } from '../lib/ids.ts'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../lib/private-files.ts'
import { assertBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts'

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

/**
 * Blobs as files under one directory; writes go to a temporary file renamed into place. Files are
 * 0600 and the folders Paraph creates 0700 (lib/private-files.ts).
 */
export class FsBlobStore implements BlobStore {
  readonly root: string
  constructor(root: string) {
    this.root = root
  }

  #path(key: string): string {
    assertBlobKey(key)
    return join(this.root, key)
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<StoredBlob> {
    const path = this.#path(key)
    await makePrivateDir(dirname(path))
    const temporary = `${path}.${randomBase62(8)}.tmp`
    await writeFile(temporary, bytes, { flush: true, mode: PRIVATE_FILE_MODE })
    await makePrivateFile(temporary)
    await rename(temporary, path)
    return { key, size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') }
  }

  /**
   * The source becomes the blob without copying its bytes when both lie on one file system: it is
   * synced and hard-linked into place (a large upload was written once already, as it arrived).
   * Elsewhere it is copied. Either way the caller may then delete the source, never change it.
   */
  async putFile(key: string, source: string, _contentType: string): Promise<StoredBlob> {
    const path = this.#path(key)
    await makePrivateDir(dirname(path))
    const temporary = `${path}.${randomBase62(8)}.tmp`
    const [measured] = await Promise.all([hashFile(source), this.#linkOrCopy(source, temporary)])
    // A hard link shares the source's inode and mode: the caller's temporary file, made private too.
    await makePrivateFile(temporary)
    await rename(temporary, path)
    return { key, ...measured }
  }

  async #linkOrCopy(source: string, temporary: string): Promise<void> {
    const handle = await open(source, 'r')
    try {
      // Synced before the database row that names the blob commits: after a crash no row points
      // to bytes that never reached the disk.
      await handle.datasync()
    } finally {
      await handle.close()
    }
    try {
      await link(source, temporary)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error
      await pipeline(
        createReadStream(source),
        createWriteStream(temporary, { flush: true, mode: PRIVATE_FILE_MODE }),
      )
    }
  }
  async presignedGetUrl(): Promise<string | null> {
    return null
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#path(key))
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }

  async stream(key: string): Promise<Readable | null> {
    const path = this.#path(key)
    if (!(await this.exists(key))) return null
    return createReadStream(path)
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.#path(key))).isFile()
    } catch (error) {
      if (isMissing(error)) return false
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true })
  }

  async deleteFolder(prefix: string): Promise<number> {
    const dir = this.#path(prefix)
    let found: number
    try {
      found = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length
    } catch (error) {
      if (isMissing(error)) return 0
      throw error
    }
    await rm(dir, { recursive: true, force: true })
    return found
  }
}
