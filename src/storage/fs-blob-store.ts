import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { randomBase62 } from '../lib/ids.ts'
import { assertBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts'

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

/** Blobs as files under one directory; writes go to a temporary file renamed into place. */
export class FsBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  #path(key: string): string {
    assertBlobKey(key)
    return join(this.root, key)
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<StoredBlob> {
    const path = this.#path(key)
    await mkdir(dirname(path), { recursive: true })
    const temporary = `${path}.${randomBase62(8)}.tmp`
    await writeFile(temporary, bytes, { flush: true })
    await rename(temporary, path)
    return { key, size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') }
  }

  async putFile(key: string, source: string, _contentType: string): Promise<StoredBlob> {
    const path = this.#path(key)
    await mkdir(dirname(path), { recursive: true })
    const temporary = `${path}.${randomBase62(8)}.tmp`
    const hash = createHash('sha256')
    let size = 0
    await pipeline(
      createReadStream(source),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk)
          size += chunk.length
          done(null, chunk)
        },
      }),
      createWriteStream(temporary, { flush: true }),
    )
    await rename(temporary, path)
    return { key, size, sha256: hash.digest('hex') }
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
}
