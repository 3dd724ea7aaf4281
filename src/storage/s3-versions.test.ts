// S3BlobStore.deleteFolder on a VERSIONED bucket (docs/privacy.md#databases-and-file-stores-forget-for-real):
// every version and delete marker under the folder is deleted by its version id. s3rver, the S3
// server of the other tests, has no versioning, and no versioned S3 server can run on this
// machine, so this test answers the two S3 calls involved (ListObjectVersions, DeleteObjects) from
// a small local HTTP server, with the XML AWS documents, and checks what the store sends it: the
// AWS SDK's real requests, over a real socket.
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { S3BlobStore } from './s3-blob-store.ts'

interface Version {
  key: string
  versionId: string
  marker?: boolean
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

describe('S3BlobStore.deleteFolder on a versioned bucket', () => {
  let server: Server
  let endpoint: string
  let versions: Version[]
  const deleteRequests: string[] = []
  const listed: string[] = []

  before(async () => {
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://s3.local')
      if (req.method === 'GET' && url.searchParams.has('versions')) {
        const prefix = url.searchParams.get('prefix') ?? ''
        listed.push(prefix)
        const under = versions.filter((v) => v.key.startsWith(prefix))
        const xml = under
          .map((v) =>
            v.marker
              ? `<DeleteMarker><Key>${v.key}</Key><VersionId>${v.versionId}</VersionId><IsLatest>true</IsLatest></DeleteMarker>`
              : `<Version><Key>${v.key}</Key><VersionId>${v.versionId}</VersionId><IsLatest>false</IsLatest><Size>3</Size></Version>`,
          )
          .join('')
        res.writeHead(200, { 'content-type': 'application/xml' })
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>${prefix}</Prefix><IsTruncated>false</IsTruncated>${xml}</ListVersionsResult>`,
        )
        return
      }
      if (req.method === 'POST' && url.searchParams.has('delete')) {
        const xml = await body(req)
        deleteRequests.push(xml)
        const gone = [...xml.matchAll(/<Key>([^<]+)<\/Key>(?:<VersionId>([^<]+)<\/VersionId>)?/g)].map(
          (m) => ({
            key: m[1]!,
            versionId: m[2],
          }),
        )
        versions = versions.filter((v) => !gone.some((g) => g.key === v.key && g.versionId === v.versionId))
        res.writeHead(200, { 'content-type': 'application/xml' })
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></DeleteResult>',
        )
        return
      }
      res.writeHead(501, { 'content-type': 'application/xml' })
      res.end('<Error><Code>NotImplemented</Code><Message>not in this test</Message></Error>')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('deletes every version and delete marker under the folder, by version id, and nothing beside it', async () => {
    versions = [
      { key: 'paraph/acct/test/submissions/sub_1/final-1.pdf', versionId: 'v1' },
      { key: 'paraph/acct/test/submissions/sub_1/final-1.pdf', versionId: 'v2' },
      { key: 'paraph/acct/test/submissions/sub_1/final-1.pdf', versionId: 'm3', marker: true },
      { key: 'paraph/acct/test/submissions/sub_1/values/sbm_1/a.png', versionId: 'v4' },
      { key: 'paraph/acct/test/submissions/sub_10/final-1.pdf', versionId: 'v5' },
    ]
    const store = new S3BlobStore({
      bucket: 'b',
      region: 'eu-west-1',
      endpoint,
      forcePathStyle: true,
      prefix: 'paraph',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    try {
      assert.equal(await store.deleteFolder('acct/test/submissions/sub_1'), 4)
    } finally {
      store.destroy()
    }
    assert.ok(
      listed.every((p) => p === 'paraph/acct/test/submissions/sub_1/'),
      'the folder with its slash',
    )
    assert.equal(deleteRequests.length, 1)
    for (const id of ['v1', 'v2', 'm3', 'v4'])
      assert.match(deleteRequests[0]!, new RegExp(`<VersionId>${id}</VersionId>`))
    assert.deepEqual(
      versions.map((v) => v.versionId),
      ['v5'],
      'the next folder (sub_10) is untouched',
    )
  })
})
