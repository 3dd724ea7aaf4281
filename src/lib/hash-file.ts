// One streaming pass over a local file: its size and SHA-256, without holding it in memory (blob
// stores checking what they store, backup and restore checking what they copied).
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

export interface FileDigest {
  size: number
  /** The raw SHA-256. */
  digest: Buffer
}

export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    size += chunk.length
  }
  return { size, digest: hash.digest() }
}

/** Size and SHA-256 as lowercase hex. */
export async function hashFile(path: string): Promise<{ size: number; sha256: string }> {
  const { size, digest } = await digestFile(path)
  return { size, sha256: digest.toString('hex') }
}
