// The files Paraph creates under DATA_DIR — the SQLite database with its -wal and -shm,
// the blobs, the generated secret and the generated sealing certificate — are 0600 and its folders
// 0700, whatever the umask: this runs under the most permissive one (000), where a file left to its
// default mode would come out 0666.
import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { loadOrCreateSelfSigned } from '../src/pdf/seal/self-signed-seal.ts'
import { ENGINE, startTestApp, type TestApp } from './harness.ts'
import { createSubmission, everyTypeBody, FIRST_VALUES, signer } from './signing.ts'

/** Every file and folder under `root` (itself included) with its permission bits. */
async function modes(root: string): Promise<Map<string, number>> {
  const out = new Map<string, number>([['.', (await stat(root)).mode & 0o777]])
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name)
    out.set(relative(root, path), (await stat(path)).mode & 0o777)
  }
  return out
}

describe('data files are private (issue #20)', () => {
  let t: TestApp
  let root: string
  let dataDir: string
  let umask: number
  before(async () => {
    umask = process.umask(0o000)
    root = await mkdtemp(join(tmpdir(), 'paraph-private-data-'))
    dataDir = join(root, 'data')
    t = await startTestApp({
      env: {
        DATA_DIR: dataDir,
        // Empty: the secret is generated and kept in DATA_DIR.
        PARAPH_SECRET: '',
        ...(ENGINE === 'sqlite' ? { DATABASE_URL: `sqlite:${join(dataDir, 'paraph.db')}` } : {}),
      },
    })
  })
  after(async () => {
    await t.close()
    process.umask(umask)
    await rm(root, { recursive: true, force: true })
  })

  it('database, -wal and -shm, blobs, secret and sealing certificate 0600; every folder 0700', async () => {
    const key = (await t.account()).testKey
    const created = await createSubmission(t, key, await everyTypeBody(['first']))
    const signed = await signer(t, created.submitters[0]!, 'sign', { values: FIRST_VALUES })
    assert.equal(signed.statusCode, 200, signed.body)
    const { path: certificate } = await loadOrCreateSelfSigned(t.config.dataDir, t.clock.now())
    const found = await modes(dataDir)
    const expected = ['paraph-secret', relative(dataDir, certificate)]
    if (ENGINE === 'sqlite') expected.push('paraph.db', 'paraph.db-wal', 'paraph.db-shm')
    for (const name of expected) assert.ok(found.has(name), `${name} in ${[...found.keys()].join(', ')}`)
    const blobs = [...found.keys()].filter((name) => name.startsWith('blobs/') && name.endsWith('.png'))
    assert.equal(blobs.length, 2, 'the signature and the initials')
    for (const [name, mode] of found) {
      const isFolder = (await stat(join(dataDir, name))).isDirectory()
      assert.equal(mode.toString(8), isFolder ? '700' : '600', name)
    }
  })
})
