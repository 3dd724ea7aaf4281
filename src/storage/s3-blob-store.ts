import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { S3Client } from '@aws-sdk/client-s3'
import { type Clock, systemClock } from '../lib/clock.ts'
import { attachmentDisposition } from '../lib/content-disposition.ts'
import { digestFile } from '../lib/hash-file.ts'
import { assertBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts'

export interface S3BlobStoreOptions {
  bucket: string
  region: string
  /** An S3-compatible server; absent: AWS S3. */
  endpoint?: string
  forcePathStyle?: boolean
  /** Blobs live under `prefix/` in the bucket ('' or absent: at its root). */
  prefix?: string
  /** For tests. Absent (production): the SDK's default chain (AWS_* variables, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  /** What presigned URLs count their lifetime from; tests sign in the past instead of sleeping. */
  clock?: Clock
}

/** SigV4 presigned URLs cannot live longer than 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600

/**
 * The AWS SDK, loaded at the store's first call: 0.2 s of CPU that a process storing to files, and
 * each test file's process, does not pay.
 */
interface Sdk {
  s3: typeof import('@aws-sdk/client-s3')
  client: S3Client
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl
}

/** GetObject says NoSuchKey; HeadObject has no body, so a missing key is a bare 404 NotFound. */
function isMissing(sdk: Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.s3.S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')
  )
}

/** A server that does not implement ListObjectVersions (s3rver: 405 MethodNotAllowed). */
function isUnsupported(sdk: Sdk, error: unknown): boolean {
  if (!(error instanceof sdk.s3.S3ServiceException)) return false
  const status = error.$metadata?.httpStatusCode
  return (
    error.name === 'NotImplemented' || error.name === 'MethodNotAllowed' || status === 405 || status === 501
  )
}

/** Blobs as objects in one S3 bucket (AWS or compatible); a PutObject replaces an object atomically. */
export class S3BlobStore implements BlobStore {
  readonly #options: S3BlobStoreOptions
  #sdk: Promise<Sdk> | undefined
  readonly #bucket: string
  readonly #prefix: string
  readonly #clock: Clock
  /** Whether the server lists object versions; unknown until the first folder deletion. */
  #versioned: boolean | undefined

  constructor(options: S3BlobStoreOptions) {
    this.#options = options
    this.#bucket = options.bucket
    this.#prefix = options.prefix ? `${options.prefix}/` : ''
    this.#clock = options.clock ?? systemClock
  }

  #load(): Promise<Sdk> {
    this.#sdk ??= (async () => {
      const [s3, presigner] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/s3-request-presigner'),
      ])
      const client = new s3.S3Client({
        region: this.#options.region,
        endpoint: this.#options.endpoint,
        forcePathStyle: this.#options.forcePathStyle ?? false,
        credentials: this.#options.credentials,
      })
      return { s3, client, getSignedUrl: presigner.getSignedUrl }
    })()
    return this.#sdk
  }

  #object(key: string): { Bucket: string; Key: string } {
    assertBlobKey(key)
    return { Bucket: this.#bucket, Key: this.#prefix + key }
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredBlob> {
    const object = this.#object(key)
    const digest = createHash('sha256').update(bytes).digest()
    const sdk = await this.#load()
    await sdk.client.send(
      new sdk.s3.PutObjectCommand({
        ...object,
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: contentType,
        // S3 refuses the upload if the bytes it received do not have this hash.
        ChecksumSHA256: digest.toString('base64'),
      }),
    )
    return { key, size: bytes.byteLength, sha256: digest.toString('hex') }
  }

  async putFile(key: string, path: string, contentType: string): Promise<StoredBlob> {
    const object = this.#object(key)
    // Hashing first (a second read of the file) lets S3 verify the upload against the hash we return.
    const { size, digest } = await digestFile(path)
    const sdk = await this.#load()
    await sdk.client.send(
      new sdk.s3.PutObjectCommand({
        ...object,
        Body: createReadStream(path),
        ContentLength: size,
        ContentType: contentType,
        ChecksumSHA256: digest.toString('base64'),
      }),
    )
    return { key, size, sha256: digest.toString('hex') }
  }

  async get(key: string): Promise<Buffer | null> {
    const body = await this.stream(key)
    return body ? buffer(body) : null
  }

  async stream(key: string): Promise<Readable | null> {
    const sdk = await this.#load()
    try {
      const { Body } = await sdk.client.send(new sdk.s3.GetObjectCommand(this.#object(key)))
      if (!Body) throw new Error(`S3 GetObject returned no body for ${key}`)
      // In Node.js the SDK's body is the HTTP response itself, a Readable.
      return Body as Readable
    } catch (error) {
      if (isMissing(sdk, error)) return null
      throw error
    }
  }

  /** A missing bucket also answers 404 to HEAD, so it reads as false here (get() and put() throw). */
  async exists(key: string): Promise<boolean> {
    const sdk = await this.#load()
    try {
      await sdk.client.send(new sdk.s3.HeadObjectCommand(this.#object(key)))
      return true
    } catch (error) {
      if (isMissing(sdk, error)) return false
      throw error
    }
  }

  /** S3 answers 204 whether or not the object existed. */
  async delete(key: string): Promise<void> {
    const sdk = await this.#load()
    await sdk.client.send(new sdk.s3.DeleteObjectCommand(this.#object(key)))
  }

  /**
   * Every version of every key under the folder (ListObjectVersions), deleted 1 000 per request;
   * delete markers included, so a versioned bucket keeps nothing Paraph wrote there. A server
   * without versioning support (MinIO unversioned, s3rver of the tests) answers the listing
   * with NotImplemented or 405: its objects have one version each, listed by ListObjectsV2.
   * A bucket's object lock or a lifecycle rule outside Paraph is the operator's (docs/privacy.md).
   */
  async deleteFolder(prefix: string): Promise<number> {
    assertBlobKey(prefix)
    const sdk = await this.#load()
    const folder = `${this.#prefix}${prefix}/`
    let found = 0
    for (;;) {
      const batch = await this.#listVersions(sdk, folder)
      if (batch.length === 0) return found
      found += batch.length
      const result = await sdk.client.send(
        new sdk.s3.DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: batch, Quiet: true } }),
      )
      const failed = result.Errors ?? []
      if (failed.length > 0) {
        throw new Error(
          `S3 refused to delete ${failed.length} object(s) under ${folder}: ${failed[0]?.Code} ${failed[0]?.Message}`,
        )
      }
    }
  }

  /** Up to 1 000 objects (with their version ids when the server has versions) left under `folder`. */
  async #listVersions(sdk: Sdk, folder: string): Promise<Array<{ Key: string; VersionId?: string }>> {
    if (this.#versioned !== false) {
      try {
        const listed = await sdk.client.send(
          new sdk.s3.ListObjectVersionsCommand({ Bucket: this.#bucket, Prefix: folder, MaxKeys: 1000 }),
        )
        this.#versioned = true
        return [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]
          .filter((v) => v.Key !== undefined)
          .slice(0, 1000)
          .map((v) => ({
            Key: v.Key!,
            ...(v.VersionId && v.VersionId !== 'null' ? { VersionId: v.VersionId } : {}),
          }))
      } catch (error) {
        if (this.#versioned === true || !isUnsupported(sdk, error)) throw error
        this.#versioned = false
      }
    }
    const listed = await sdk.client.send(
      new sdk.s3.ListObjectsV2Command({ Bucket: this.#bucket, Prefix: folder, MaxKeys: 1000 }),
    )
    return (listed.Contents ?? []).filter((o) => o.Key !== undefined).map((o) => ({ Key: o.Key! }))
  }

  /**
   * Null beyond SigV4's 7-day limit: the caller then serves the bytes behind a URL it signs itself,
   * as for the filesystem store.
   */
  async presignedGetUrl(key: string, expiresAt: Date, downloadName: string): Promise<string | null> {
    const object = this.#object(key)
    const now = this.#clock.now()
    // Whole seconds, rounded down, so the URL never outlives expiresAt.
    const expiresIn = Math.floor((expiresAt.getTime() - now.getTime()) / 1000)
    if (expiresIn < 1) throw new Error(`presignedGetUrl: expiresAt ${expiresAt.toISOString()} is not ahead`)
    if (expiresIn > MAX_PRESIGN_SECONDS) return null
    const sdk = await this.#load()
    const command = new sdk.s3.GetObjectCommand({
      ...object,
      ResponseContentDisposition: attachmentDisposition(downloadName),
    })
    return sdk.getSignedUrl(sdk.client, command, { expiresIn, signingDate: now })
  }

  /** Closes the SDK's pooled connections (none when the store was never used). */
  destroy(): void {
    void this.#sdk?.then(
      (sdk) => sdk.client.destroy(),
      () => undefined,
    )
  }
}
