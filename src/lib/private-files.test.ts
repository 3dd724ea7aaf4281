import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  createPrivateFileSync,
  makePrivateDir,
  makePrivateDirSync,
  makePrivateFile,
} from './private-files.ts'

const mode = async (path: string) => (await stat(path)).mode & 0o777

describe('private files (issue #20), under a umask of 000', () => {
  let root: string
  let umask: number
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'paraph-private-'))
    // The most permissive umask: whatever is not chmod-ed would come out 0666 or 0777.
    umask = process.umask(0o000)
  })
  after(async () => {
    process.umask(umask)
    await rm(root, { recursive: true, force: true })
  })

  it('makePrivateDir makes every folder it creates 0700 and leaves existing ones as they were', async () => {
    const shared = join(root, 'shared')
    await mkdir(shared, { mode: 0o755 })
    await makePrivateDir(join(shared, 'a', 'b', 'c'))
    assert.equal(await mode(shared), 0o755)
    for (const dir of ['a', 'a/b', 'a/b/c']) assert.equal(await mode(join(shared, dir)), 0o700, dir)
    makePrivateDirSync(join(shared, 'd', 'e'))
    for (const dir of ['d', 'd/e']) assert.equal(await mode(join(shared, dir)), 0o700, dir)
    await makePrivateDir(join(shared, 'a', 'b', 'c'))
  })

  it('makePrivateFile makes a file 0600; createPrivateFileSync creates one 0600 in a 0700 folder, once', async () => {
    const loose = join(root, 'loose')
    await writeFile(loose, 'x')
    assert.equal(await mode(loose), 0o666, 'the default under umask 000')
    await makePrivateFile(loose)
    assert.equal(await mode(loose), 0o600)
    const db = join(root, 'new', 'paraph.db')
    createPrivateFileSync(db)
    assert.equal(await mode(db), 0o600)
    assert.equal(await mode(join(root, 'new')), 0o700)
    await writeFile(db, 'kept')
    createPrivateFileSync(db)
    assert.equal((await stat(db)).size, 4, 'an existing file is left alone')
  })
})
