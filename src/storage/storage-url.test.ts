import assert from 'node:assert/strict'
import { resolve } from 'node:path'
import { describe, it } from 'node:test'
import { FsBlobStore } from './fs-blob-store.ts'
import { S3BlobStore } from './s3-blob-store.ts'
import { createBlobStore, parseS3StorageUrl } from './storage-url.ts'

describe('parseS3StorageUrl', () => {
  it('reads bucket, endpoint, region and path style', () => {
    assert.deepEqual(
      parseS3StorageUrl(
        's3://paraph-docs?endpoint=http://127.0.0.1:9000&region=eu-west-3&force_path_style=true',
      ),
      {
        bucket: 'paraph-docs',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-3',
        forcePathStyle: true,
        prefix: '',
      },
    )
  })

  it('defaults to AWS itself, us-east-1 and virtual-hosted buckets', () => {
    assert.deepEqual(parseS3StorageUrl('s3://paraph-docs'), {
      bucket: 'paraph-docs',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: '',
    })
  })

  it('accepts a percent-encoded endpoint and takes the path as a key prefix', () => {
    const parsed = parseS3StorageUrl('s3://bucket/paraph/prod/?endpoint=https%3A%2F%2Fs3.example.com')
    assert.equal(parsed.endpoint, 'https://s3.example.com')
    assert.equal(parsed.prefix, 'paraph/prod')
  })

  const refused: Array<[string, RegExp]> = [
    ['not a url', /STORAGE_URL is not a valid URL/],
    ['http://bucket', /must start with s3:\/\//],
    ['s3://?region=eu-west-3', /invalid bucket name ""/],
    ['s3://a%20b', /invalid bucket name/],
    ['s3://AKIA:secret@bucket', /must not hold credentials/],
    ['s3://bucket:9000', /must not have a port/],
    ['s3://bucket?forcePathStyle=true', /unknown parameter "forcePathStyle"/],
    ['s3://bucket?force_path_style=yes', /force_path_style must be true or false \(got "yes"\)/],
    ['s3://bucket?endpoint=127.0.0.1:9000', /endpoint must be an http:\/\/ or https:\/\/ URL/],
    ['s3://bucket?region=', /invalid region ""/],
    ['s3://bucket/a%2F..%2Fb', /invalid key prefix/],
    ['s3://bucket/%E9', /invalid key prefix/],
  ]
  for (const [url, message] of refused) {
    it(`refuses ${url} with one clear line`, () => {
      assert.throws(
        () => parseS3StorageUrl(url),
        (error: Error) => message.test(error.message) && !error.message.includes('\n'),
      )
    })
  }
})

describe('createBlobStore', () => {
  it('file:DIR is a directory relative to the working directory', () => {
    const store = createBlobStore('file:./data/blobs')
    assert.ok(store instanceof FsBlobStore)
    assert.equal(store.root, resolve('data/blobs'))
  })

  it('file:///DIR is a file URL', () => {
    const store = createBlobStore('file:///var/lib/paraph/blobs')
    assert.ok(store instanceof FsBlobStore)
    assert.equal(store.root, '/var/lib/paraph/blobs')
  })

  it('s3:// is an S3 store (no request is made until it is used)', () => {
    const store = createBlobStore('s3://bucket?endpoint=http://127.0.0.1:1&force_path_style=true')
    assert.ok(store instanceof S3BlobStore)
    store.destroy()
  })

  it('refuses an empty directory and other schemes', () => {
    assert.throws(() => createBlobStore('file:'), /file: needs a directory/)
    assert.throws(() => createBlobStore('gs://bucket'), /must start with file: or s3:\/\/ \(got "gs:"\)/)
  })
})
