// The served OpenAPI is the public contract: docs/openapi.yaml holds it byte for byte, so a change to
// any route's schema shows in review as a change to that file. After an intended change, write it
// anew with `PARAPH_WRITE_OPENAPI=1 npm test -- sqlite src/http/openapi-snapshot.test.ts`.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import { startTestApp } from '../../test/harness.ts'

const SNAPSHOT = new URL('../../docs/openapi.yaml', import.meta.url)

describe('docs/openapi.yaml', () => {
  it('is the OpenAPI the app serves, byte for byte', async () => {
    const t = await startTestApp()
    try {
      const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' })
      assert.equal(res.statusCode, 200)
      if (process.env.PARAPH_WRITE_OPENAPI === '1') await writeFile(SNAPSHOT, res.body)
      const kept = await readFile(SNAPSHOT, 'utf8')
      assert.ok(
        kept === res.body,
        'the served OpenAPI differs from docs/openapi.yaml (see the header of this test)',
      )
    } finally {
      await t.close()
    }
  })
})
