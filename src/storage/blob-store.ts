import type { Readable } from 'node:stream'

export interface StoredBlob {
  key: string
  size: number
  sha256: string
}

/**
 * Where document bytes live: the filesystem by default, S3 when scaled out. Keys are
 * slash-separated names made by the service (never by users): `acct_…/test/sub_…/original.pdf`.
 */
export interface BlobStore {
  /** Writes the whole blob atomically: readers see the old bytes or the new, never a part. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredBlob>
  /**
   * Like put(), from a file on local disk (a large download), streamed rather than read into memory.
   * The file is left in place and the caller removes it, but must not change it: the filesystem
   * store may take it over as the blob itself (a hard link) instead of copying it.
   */
  putFile(key: string, path: string, contentType: string): Promise<StoredBlob>
  /** The bytes, or null when no blob has that key. */
  get(key: string): Promise<Buffer | null>
  /** A stream of the bytes, or null when no blob has that key. */
  stream(key: string): Promise<Readable | null>
  exists(key: string): Promise<boolean>
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>
  /**
   * Removes every blob whose key starts with `prefix` + '/' (a folder of keys), every version of
   * each on a versioned S3 bucket; answers how many keys it found. Nothing found is not an error,
   * so a purge retried after a crash finishes what the first run began (docs/privacy.md#purge).
   */
  deleteFolder(prefix: string): Promise<number>
  /**
   * A URL the store itself serves for a GET of the blob until `expiresAt` (S3: a presigned URL),
   * or null when the store cannot (the filesystem store: Paraph then serves the bytes behind a URL
   * it signs itself).
   */
  presignedGetUrl(key: string, expiresAt: Date, downloadName: string): Promise<string | null>
}

const KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/

/** Keys are service-made; anything that could climb out of the store (`..`, absolute paths) is a bug. */
export function assertBlobKey(key: string): void {
  if (
    key.length > 512 ||
    !KEY_PATTERN.test(key) ||
    key.split('/').some((part) => part === '..' || part === '.')
  ) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`)
  }
}
