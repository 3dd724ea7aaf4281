// STORAGE_URL (docs/operations.md#configuration) → the BlobStore it names: `file:DIR` or
// `s3://BUCKET?endpoint=URL&region=R&force_path_style=true`.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Clock } from '../lib/clock.ts'
import { assertBlobKey, type BlobStore } from './blob-store.ts'
import { FsBlobStore } from './fs-blob-store.ts'
import { S3BlobStore } from './s3-blob-store.ts'

export interface S3StorageUrl {
  bucket: string
  /** An S3-compatible server (MinIO, R2…); absent: AWS S3 itself. */
  endpoint?: string
  region: string
  forcePathStyle: boolean
  /** `s3://BUCKET/PREFIX`: blobs live under PREFIX/ in the bucket; '' when the URL has no path. */
  prefix: string
}

const PARAMETERS = new Set(['endpoint', 'region', 'force_path_style'])
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/

function invalid(reason: string): Error {
  return new Error(`STORAGE_URL ${reason} (expected s3://BUCKET?endpoint=URL&region=R&force_path_style=true)`)
}

/** The URL's path, without its slashes, must itself be a valid blob key (or empty). */
function keyPrefix(pathname: string): string {
  let prefix = ''
  try {
    prefix = decodeURIComponent(pathname).replace(/^\/+|\/+$/g, '')
    if (prefix !== '') assertBlobKey(prefix)
  } catch {
    throw invalid(`has an invalid key prefix "${pathname}"`)
  }
  return prefix
}

export function parseS3StorageUrl(url: string): S3StorageUrl {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw invalid('is not a valid URL')
  }
  if (parsed.protocol !== 's3:') throw invalid(`must start with s3:// (got "${parsed.protocol}")`)
  // Credentials in the URL would end up in logs and process listings; the SDK reads them from AWS_*.
  if (parsed.username || parsed.password) throw invalid('must not hold credentials: use AWS_ACCESS_KEY_ID')
  if (parsed.port) throw invalid('must not have a port: the server goes in endpoint=')
  if (!BUCKET.test(parsed.hostname)) throw invalid(`has an invalid bucket name "${parsed.hostname}"`)
  for (const name of parsed.searchParams.keys()) {
    if (!PARAMETERS.has(name)) throw invalid(`has an unknown parameter "${name}"`)
  }
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw invalid(`endpoint must be an http:// or https:// URL (got "${endpoint}")`)
  }
  const region = parsed.searchParams.get('region') ?? 'us-east-1'
  if (!/^[a-z0-9-]+$/.test(region)) throw invalid(`has an invalid region "${region}"`)
  const pathStyle = parsed.searchParams.get('force_path_style') ?? 'false'
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw invalid(`force_path_style must be true or false (got "${pathStyle}")`)
  }
  return {
    bucket: parsed.hostname,
    endpoint,
    region,
    forcePathStyle: pathStyle === 'true',
    prefix: keyPrefix(parsed.pathname),
  }
}

/** The store STORAGE_URL names; config.ts has already refused other schemes, this repeats it for safety. */
/** `clock` dates presigned URLs, so their lifetime follows the service's (injected) clock. */
export function createBlobStore(storageUrl: string, clock?: Clock): BlobStore {
  if (storageUrl.startsWith('file:')) {
    const rest = storageUrl.slice('file:'.length)
    if (rest === '') throw new Error('STORAGE_URL file: needs a directory, e.g. file:./data/blobs')
    // `file:///abs` is a file URL; `file:DIR` is a plain path, relative to the working directory.
    return new FsBlobStore(resolve(rest.startsWith('//') ? fileURLToPath(storageUrl) : rest))
  }
  if (storageUrl.startsWith('s3://')) {
    const { bucket, endpoint, region, forcePathStyle, prefix } = parseS3StorageUrl(storageUrl)
    return new S3BlobStore({ bucket, endpoint, region, forcePathStyle, prefix, clock })
  }
  throw new Error(`STORAGE_URL must start with file: or s3:// (got "${storageUrl.split(':')[0]}:")`)
}
