// The committed generated code is what docs/openapi.yaml generates (docs/sdks.md#regenerating):
// after a route or schema change, `npm run sdk:generate` and commit. The snapshot itself equals
// the served GET /openapi.yaml (src/http/openapi-snapshot.test.ts), so the SDK cannot drift from
// the server. Also: the same input generates the same bytes twice (deterministic output).
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import { generateTypeScriptSdk } from './scripts/generate.ts'
import { OPERATIONS } from './src/generated/operations.gen.ts'

const here = new URL('./', import.meta.url)

describe('the generated TypeScript SDK', () => {
  it('equals what the committed docs/openapi.yaml generates, byte for byte, every time', async () => {
    const openapi = await readFile(new URL('../../docs/openapi.yaml', here), 'utf8')
    const files = await generateTypeScriptSdk(openapi)
    assert.deepEqual(
      files.map((f) => f.path),
      ['src/generated/openapi.gen.ts', 'src/generated/operations.gen.ts'],
    )
    for (const file of files) {
      const committed = await readFile(new URL(file.path, here), 'utf8')
      assert.ok(
        committed === file.text,
        `sdks/typescript/${file.path} is stale: run \`npm run sdk:generate\` and commit it`,
      )
    }
    const again = await generateTypeScriptSdk(openapi)
    assert.deepEqual(
      again.map((f) => f.text),
      files.map((f) => f.text),
    )
  })

  it('marks the creating POSTs the OpenAPI gives an Idempotency-Key, and only those', () => {
    const idempotent = Object.entries(OPERATIONS)
      .filter(([, op]) => op.idempotent)
      .map(([id]) => id)
    assert.deepEqual(idempotent, [
      'createTemplate',
      'createSubmission',
      'createSubmissionFromPdf',
      'createSubmissionFromHtml',
      'createSubmissionFromDocx',
      'createBulkSend',
      'createErasure',
    ])
    assert.ok(Object.values(OPERATIONS).every((op) => !op.idempotent || op.method === 'POST'))
  })
})
