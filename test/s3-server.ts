// A local S3-compatible server for tests (s3rver), on loopback and a free port, with its data in a
// temporary directory. Limits found on s3rver 3.7.1: it checks the access key id but does not verify
// SigV4 signatures (a tampered signature is accepted); it does refuse expired presigned URLs.
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The part of s3rver's API used here: the package ships no type declarations. */
interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}
type S3rverClass = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: Array<{ name: string }>
}) => S3rverInstance

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

/** s3rver accepts only these credentials (its built-in account); any client may use them. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface TestS3Server {
  /** The STORAGE_URL that points at this server's bucket. */
  url: string
  endpoint: string
  bucket: string
  /** Where s3rver keeps the objects on disk: a test may read every byte the bucket holds. */
  directory: string
  close(): Promise<void>
}

export async function startS3Server(bucket = 'paraph-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'paraph-s3rver-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    url: `s3://${bucket}?endpoint=${endpoint}&region=us-east-1&force_path_style=true`,
    endpoint,
    bucket,
    directory,
    close: async () => {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
