// `paraph restore --from DIR`: a backup made by take-backup.ts into an empty
// DATA_DIR (and empty database and blob locations, should DATABASE_URL or STORAGE_URL point
// elsewhere). Nothing is written until every file of the manifest has its size and SHA-256; the
// database is written last, under a temporary name renamed into place, so a restore cut short leaves
// no database a service would start on.
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Config } from '../config.ts'
import { makePrivateDir } from '../lib/private-files.ts'
import { BackupError, type DataLayout, embeddedLayout, isInside, keptFilePath } from './data-layout.ts'
import { copyWithHash, eachLimited, hashFile, isEmptyOrMissing, isMissing, walkFiles } from './file-copy.ts'
import { type BackupFile, BLOBS_FOLDER, MANIFEST_FILE, type Manifest, readManifest } from './manifest.ts'
import { megabytes } from './take-backup.ts'

export interface RestoreSummary {
  manifest: Manifest
  files: number
  bytes: number
  /** Files in DIR the manifest does not list: not restored. */
  unlisted: string[]
}

async function checkTargets(layout: DataLayout, source: string): Promise<void> {
  if (isInside(source, layout.dataDir) || isInside(layout.dataDir, source)) {
    throw new BackupError(
      `the backup ${source} and DATA_DIR ${layout.dataDir} overlap: restore into another DATA_DIR`,
    )
  }
  const notEmpty = async (path: string) => !(await isEmptyOrMissing(path))
  if (await notEmpty(layout.dataDir)) {
    throw new BackupError(`DATA_DIR ${layout.dataDir} is not empty: restore into a new or empty DATA_DIR`)
  }
  const databaseExists = await stat(layout.databasePath).then(
    () => true,
    (e) => !isMissing(e) && Promise.reject(e),
  )
  if (databaseExists)
    throw new BackupError(`the database ${layout.databasePath} exists: restore needs none there`)
  if (await notEmpty(layout.blobRoot)) {
    throw new BackupError(`the blob folder ${layout.blobRoot} is not empty: restore into an empty one`)
  }
}

/** Where each file of a backup goes. */
function destination(layout: DataLayout, file: BackupFile): string {
  if (file.role === 'database') return layout.databasePath
  if (file.role === 'blob') return join(layout.blobRoot, file.path.slice(BLOBS_FOLDER.length + 1))
  return keptFilePath(layout, file.path)
}

function mismatch(source: string, file: BackupFile, found: string): BackupError {
  return new BackupError(
    `the backup ${source} is damaged: ${file.path} ${found} (manifest: ${file.size} bytes, sha256 ${file.sha256}); nothing was restored`,
  )
}

/** Every listed file present with its size and hash: the whole backup is read once before any write. */
async function verify(source: string, manifest: Manifest, progress: (line: string) => void): Promise<void> {
  let checked = 0
  await eachLimited(manifest.files, 8, async (file) => {
    let measured: { size: number; sha256: string }
    try {
      measured = await hashFile(join(source, file.path))
    } catch (error) {
      if (isMissing(error)) throw mismatch(source, file, 'is missing')
      throw error
    }
    if (measured.size !== file.size) throw mismatch(source, file, `has ${measured.size} bytes`)
    if (measured.sha256 !== file.sha256) throw mismatch(source, file, `has sha256 ${measured.sha256}`)
    if (++checked % 1000 === 0) progress(`verified ${checked} of ${manifest.files.length} files`)
  })
}

async function unlistedFiles(source: string, manifest: Manifest): Promise<string[]> {
  const listed = new Set([MANIFEST_FILE, ...manifest.files.map((f) => f.path)])
  const unlisted: string[] = []
  for await (const path of walkFiles(source)) if (!listed.has(path)) unlisted.push(path)
  return unlisted
}

/** Copies one file, checking the copy against the manifest again (the backup could change meanwhile). */
async function restoreFile(source: string, file: BackupFile, to: string): Promise<void> {
  const measured = await copyWithHash(join(source, file.path), to)
  if (measured.sha256 !== file.sha256 || measured.size !== file.size) {
    await rm(to, { force: true })
    throw new BackupError(
      `${file.path} changed while it was restored; the restore is incomplete: empty DATA_DIR and run it again`,
    )
  }
}

export async function restoreBackup(
  config: Readonly<Config>,
  source: string,
  progress: (line: string) => void,
): Promise<RestoreSummary> {
  const layout = embeddedLayout(config, 'restore')
  const sourceExists = await readdir(source).then(
    () => true,
    (e) => !isMissing(e) && Promise.reject(e),
  )
  if (!sourceExists) throw new BackupError(`${source} does not exist`)
  const manifest = await readManifest(source)
  await checkTargets(layout, source)
  progress(`verifying ${manifest.files.length} files of the backup made ${manifest.created_at}`)
  await verify(source, manifest, progress)
  const unlisted = await unlistedFiles(source, manifest)
  if (unlisted.length > 0)
    progress(`ignored: ${unlisted.length} files the manifest does not list, such as ${unlisted[0]}`)

  await makePrivateDir(layout.dataDir)
  await makePrivateDir(layout.blobRoot)
  const others = manifest.files.filter((f) => f.role !== 'database')
  let restored = 0
  await eachLimited(others, 8, async (file) => {
    await restoreFile(source, file, destination(layout, file))
    if (++restored % 1000 === 0) progress(`copied ${restored} of ${others.length} files`)
  })
  const database = manifest.files.find((f) => f.role === 'database')!
  const databasePath = destination(layout, database)
  await makePrivateDir(dirname(databasePath))
  await restoreFile(source, database, `${databasePath}.restoring`)
  await rename(`${databasePath}.restoring`, databasePath)
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0)
  progress(`copied the database and ${others.length} files, ${megabytes(bytes)}`)
  return { manifest, files: manifest.files.length, bytes, unlisted }
}
