// What `paraph backup` and `paraph restore` refuse, each in one line and before
// writing anything. The PostgreSQL and S3 refusals run on both engines' suites; the rest needs the
// embedded SQLite default and runs on the SQLite suite.
import assert from 'node:assert/strict'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, it } from 'node:test'
import { ENGINE, PG_URL } from '../../test/harness.ts'
import { runParaph } from '../../test/paraph-process.ts'
import { readConfig } from '../config.ts'
import { migrate } from '../db/database.ts'
import { createDeps } from '../deps.ts'
import { ManualClock } from '../lib/clock.ts'
import { BackupError } from './data-layout.ts'
import { type Manifest, readManifest } from './manifest.ts'
import { restoreBackup } from './restore-backup.ts'
import { takeBackup } from './take-backup.ts'

const sqliteOnly = ENGINE === 'sqlite' ? false : 'SQLite only: the embedded default'
const clock = new ManualClock('2026-11-27T10:00:00.000Z')
const quiet = () => {}
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

let root: string
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'paraph-backup-refusals-'))
})
after(() => rm(root, { recursive: true, force: true }))

describe('refused set-ups (both engines)', () => {
  it('exit 1, one line: PostgreSQL is backed up with pg_dump, nothing written', async () => {
    const env = { DATA_DIR: join(root, 'pg-data'), DATABASE_URL: PG_URL }
    for (const args of [
      ['backup', '--to', join(root, 'pg-backup')],
      ['restore', '--from', join(root, 'pg-backup')],
    ]) {
      const run = await runParaph(args, env)
      assert.equal(run.code, 1)
      assert.match(
        run.stderr,
        /^paraph: (backup|restore) covers the embedded SQLite database only; DATABASE_URL is PostgreSQL: use pg_dump, .*docs\/operations\.md.*\n$/,
      )
    }
    assert.equal(await exists(join(root, 'pg-backup')), false)
    assert.equal(await exists(join(root, 'pg-data')), false)
  })

  it('S3 blob storage is backed up with bucket versioning or replication', async () => {
    const config = readConfig({
      DATA_DIR: join(root, 's3-data'),
      STORAGE_URL: 's3://paraph-blobs?endpoint=http://127.0.0.1:9000&force_path_style=true',
    })
    await assert.rejects(takeBackup(config, join(root, 's3-backup'), clock, quiet), {
      message: /STORAGE_URL is S3: use bucket versioning or replication, after backing up the database/,
    })
    await assert.rejects(restoreBackup(config, join(root, 's3-backup'), quiet), BackupError)
    assert.equal(await exists(join(root, 's3-backup')), false)
  })
})

describe('backup refusals', { skip: sqliteOnly }, () => {
  let dataDir: string
  let env: Record<string, string>
  before(async () => {
    dataDir = join(root, 'data')
    env = { DATA_DIR: dataDir }
    const deps = await createDeps(readConfig(env))
    await migrate(deps.db, deps.engine)
    await deps.blobs.put('acct_1/test/one.pdf', Buffer.from('%PDF-1.7 one'), 'application/pdf')
    await deps.close()
  })

  it('exit 1, one line, when the target folder is not empty; the folder is left as it was', async () => {
    const target = join(root, 'full')
    await mkdir(target)
    await writeFile(join(target, 'keep.txt'), 'mine')
    const run = await runParaph(['backup', '--to', target], env)
    assert.equal(run.code, 1)
    assert.equal(run.stderr, `paraph: ${target} is not empty: back up into a new or empty folder\n`)
    assert.deepEqual(await readdir(target), ['keep.txt'])
  })

  it('refuses a missing DATA_DIR and a target inside DATA_DIR', async () => {
    const missing = readConfig({ DATA_DIR: join(root, 'nowhere') })
    await assert.rejects(takeBackup(missing, join(root, 'b1'), clock, quiet), {
      message: /^DATA_DIR .*nowhere does not exist: nothing to back up/,
    })
    await assert.rejects(takeBackup(readConfig(env), join(dataDir, 'backups'), clock, quiet), {
      message: /lies inside DATA_DIR/,
    })
    assert.equal(await exists(join(dataDir, 'backups')), false)
  })

  describe('restore', () => {
    let backup: string
    let target: string
    let targetEnv: Record<string, string>
    before(async () => {
      backup = join(root, 'good')
      await takeBackup(readConfig(env), backup, clock, quiet)
    })
    beforeEach(async () => {
      target = await mkdtemp(join(root, 'target-'))
      await rm(target, { recursive: true })
      targetEnv = { DATA_DIR: target }
    })
    const copyOfBackup = async (name: string) => {
      const copy = join(root, name)
      await takeBackup(readConfig(env), copy, clock, quiet)
      return copy
    }

    it('refuses a backup without manifest.json, writing nothing', async () => {
      const copy = await copyOfBackup('no-manifest')
      await rm(join(copy, 'manifest.json'))
      const run = await runParaph(['restore', '--from', copy], targetEnv)
      assert.equal(run.code, 1)
      assert.match(
        run.stderr,
        /^paraph: .* has no manifest\.json: not a Paraph backup, or one that did not finish/,
      )
      assert.equal(await exists(target), false)
    })

    it('refuses a tampered blob, naming it, before writing anything', async () => {
      const copy = await copyOfBackup('tampered')
      const blob = join(copy, 'blobs/acct_1/test/one.pdf')
      await writeFile(blob, '%PDF-1.7 0ne')
      await assert.rejects(restoreBackup(readConfig(targetEnv), copy, quiet), {
        message: /is damaged: blobs\/acct_1\/test\/one\.pdf has sha256 [0-9a-f]{64} .*nothing was restored$/,
      })
      await writeFile(blob, '%PDF-1.7 one and more')
      await assert.rejects(restoreBackup(readConfig(targetEnv), copy, quiet), {
        message: /one\.pdf has 21 bytes/,
      })
      await rm(blob)
      await assert.rejects(restoreBackup(readConfig(targetEnv), copy, quiet), {
        message: /one\.pdf is missing/,
      })
      assert.equal(await exists(target), false)
    })

    it('refuses a manifest whose paths leave the restored folders', async () => {
      const copy = await copyOfBackup('escaping')
      const manifest = (await readManifest(copy)) as Manifest
      manifest.files[0] = { ...manifest.files[0]!, path: 'blobs/../../../etc/evil', role: 'blob' }
      await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest))
      await assert.rejects(restoreBackup(readConfig(targetEnv), copy, quiet), {
        message: /is not a blob path/,
      })
      assert.equal(await exists(target), false)
    })

    it('refuses a DATA_DIR that is not empty', async () => {
      await mkdir(target)
      await writeFile(join(target, 'paraph-secret'), 'another')
      await assert.rejects(restoreBackup(readConfig(targetEnv), backup, quiet), {
        message: /^DATA_DIR .* is not empty: restore into a new or empty DATA_DIR$/,
      })
      assert.equal(await readFile(join(target, 'paraph-secret'), 'utf8'), 'another')
    })

    it('restores into an empty DATA_DIR: every file as listed, private', async () => {
      await mkdir(target)
      const summary = await restoreBackup(readConfig(targetEnv), backup, quiet)
      assert.equal(summary.files, summary.manifest.files.length)
      assert.equal(await readFile(join(target, 'blobs/acct_1/test/one.pdf'), 'utf8'), '%PDF-1.7 one')
      assert.ok(
        (await readFile(join(target, 'paraph-secret'))).equals(
          await readFile(join(dataDir, 'paraph-secret')),
        ),
      )
      assert.equal((await stat(join(target, 'paraph.db'))).mode & 0o777, 0o600)
      assert.equal((await stat(join(target, 'blobs'))).mode & 0o777, 0o700)
    })
  })
})
