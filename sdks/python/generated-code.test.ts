// The Python SDK's generated layer (sdks/python/src/paraph/_generated.py) is what
// scripts/generate-python-sdk.ts makes from the current docs/openapi.yaml: run the generator into a
// temporary folder and compare byte for byte (`npm run sdk:generate:python` rewrites it).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'

const ROOT = new URL('../..', import.meta.url).pathname
const COMMITTED = join(ROOT, 'sdks/python/src/paraph/_generated.py')

describe('the Python SDK generated code', () => {
  const dirs: string[] = []
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('equals what docs/openapi.yaml generates (npm run sdk:generate:python)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-python-generated-'))
    dirs.push(dir)
    const out = join(dir, '_generated.py')
    const started = performance.now()
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/generate-python-sdk.ts'), out], {
      encoding: 'utf8',
    })
    assert.equal(run.status, 0, run.stderr)
    const ms = Math.round(performance.now() - started)
    const [fresh, committed] = await Promise.all([readFile(out, 'utf8'), readFile(COMMITTED, 'utf8')])
    assert.ok(
      fresh === committed,
      'sdks/python/src/paraph/_generated.py is stale: run `npm run sdk:generate:python` and commit it',
    )
    assert.match(fresh, /^OPERATIONS: dict\[str, Operation\] = \{$/m)
    process.stdout.write(`# generated ${fresh.length} bytes in ${ms} ms\n`)
  })
})
