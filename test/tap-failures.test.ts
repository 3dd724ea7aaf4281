// scripts/tap-failures.mjs on what node's test runner really writes: a run's last screen names each
// failed test, where it is and why, and not the suites that failed only because of them.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { type TapFailure, tapFailures } from '../scripts/tap-failures.mjs'

// A test run from a test: without this, the inner runner reports to the outer one instead of writing TAP.
const { NODE_TEST_CONTEXT: _, ...env } = process.env
const tapOf = (files: string[]) =>
  spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...files], { encoding: 'utf8', env })

describe('tapFailures', () => {
  it('lists failed tests, failed hooks and crashed files, never a suite that failed through them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paraph-tap-'))
    try {
      await writeFile(
        join(dir, 'a.test.mjs'),
        [
          "import assert from 'node:assert'",
          "import { describe, it } from 'node:test'",
          "describe('suite', () => {",
          "  it('passes', () => {})",
          "  it('compares', () => assert.equal(1, 2))",
          '})',
          "it('throws on two lines', () => { throw new Error('first\\nsecond') })",
        ].join('\n'),
      )
      await writeFile(
        join(dir, 'b.test.mjs'),
        "import { before, it } from 'node:test'\nbefore(() => { throw new Error('hook broke') })\nit('never runs', () => {})\n",
      )
      await writeFile(join(dir, 'c.test.mjs'), "import './missing-module.mjs'\n")
      await writeFile(join(dir, 'd.test.mjs'), "import { it } from 'node:test'\nit('fine', () => {})\n")
      const run = tapOf(['a', 'b', 'c', 'd'].map((f) => join(dir, `${f}.test.mjs`)))
      assert.notEqual(run.status, 0)
      const failures: TapFailure[] = tapFailures(run.stdout, dir)
      const byName = new Map<string, TapFailure>(failures.map((f) => [f.name, f]))
      assert.deepEqual(
        failures.map((f) => f.name).sort(),
        ['compares', 'never runs', 'throws on two lines', join(dir, 'c.test.mjs')].sort(),
        run.stdout,
      )
      assert.match(byName.get('compares')!.where, /^a\.test\.mjs:5:\d+$/)
      assert.match(byName.get('compares')!.why, /^testCodeFailure: 1 == 2/)
      assert.equal(byName.get('throws on two lines')!.why, 'testCodeFailure: first')
      assert.match(byName.get('never runs')!.why, /^hookFailed: hook broke/)
      assert.match(byName.get(join(dir, 'c.test.mjs'))!.why, /testCodeFailure/)
      const clean = tapOf([join(dir, 'd.test.mjs')])
      assert.equal(clean.status, 0)
      assert.deepEqual(tapFailures(clean.stdout, dir), [])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
