// `paraph backup --to DIR`: a consistent copy of the embedded default while the
// service runs. Order matters:
// 1. the database, through SQLite's online backup API: the point in time of the backup;
// 2. the secret and the self-signed sealing identity, written once and never changed;
// 3. the blob folder, after the database. Blobs are write-once (a key always names the same bytes:
//    written once, or again with identical bytes when keyed by their hash; by an atomic rename,
//    before the row naming it commits), so every blob the copied database names
//    is already on disk when the folder is walked. Blobs written later are harmless extras. The only
//    deletions are blobs no committed row needs (a rolled-back creation's orphans, the page images of
//    an expired console draft being purged): a file vanishing during the walk is skipped.
// 4. manifest.json, last: a folder without it is a backup that did not finish.
import { rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../lib/private-files.ts'
import { BackupError, type DataLayout, embeddedLayout, isInside, keptFilePath } from './data-layout.ts'
import { copyWithHash, eachLimited, hashFile, isEmptyOrMissing, isMissing, walkFiles } from './file-copy.ts'
import {
  type BackupFile,
  BLOBS_FOLDER,
  DATABASE_FILE,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  type Manifest,
} from './manifest.ts'
import { finishCopy, snapshotSqlite } from './sqlite-snapshot.ts'

export interface BackupSummary {
  dir: string
  databaseBytes: number
  blobs: number
  blobBytes: number
  /** Blobs deleted between the walk and their copy (see the header). */
  vanished: number
  keptFiles: string[]
}

/** FsBlobStore's temporary name while a blob is being written (`KEY.XXXXXXXX.tmp`): not a blob yet. */
const BLOB_IN_WRITING = /\.[A-Za-z0-9]{8}\.tmp$/

async function checkSources(layout: DataLayout, target: string): Promise<void> {
  const missing = async (path: string) =>
    stat(path).then(
      () => false,
      (e) => isMissing(e) || Promise.reject(e),
    )
  if (await missing(layout.dataDir)) {
    throw new BackupError(
      `DATA_DIR ${layout.dataDir} does not exist: nothing to back up (set DATA_DIR as for paraph serve)`,
    )
  }
  if (await missing(layout.databasePath)) {
    throw new BackupError(
      `the database ${layout.databasePath} does not exist: nothing to back up (check DATA_DIR and DATABASE_URL)`,
    )
  }
  for (const [name, folder] of [
    ['DATA_DIR', layout.dataDir],
    ['the blob folder', layout.blobRoot],
  ] as const) {
    if (isInside(target, folder)) {
      throw new BackupError(`${target} lies inside ${name} (${folder}): back up to another place`)
    }
  }
  if (!(await isEmptyOrMissing(target))) {
    throw new BackupError(`${target} is not empty: back up into a new or empty folder`)
  }
}

async function copyBlobs(
  layout: DataLayout,
  target: string,
  files: BackupFile[],
  progress: (line: string) => void,
): Promise<{ vanished: number }> {
  let vanished = 0
  let copied = 0
  let bytes = 0
  await eachLimited(walkFiles(layout.blobRoot), 8, async (key) => {
    if (BLOB_IN_WRITING.test(key)) return
    const path = `${BLOBS_FOLDER}/${key}`
    try {
      const measured = await copyWithHash(join(layout.blobRoot, key), join(target, path))
      files.push({ path, role: 'blob', ...measured })
      copied++
      bytes += measured.size
      if (copied % 1000 === 0) progress(`blobs: ${copied} files, ${megabytes(bytes)} so far`)
    } catch (error) {
      if (!isMissing(error)) throw error
      vanished++
    }
  })
  return { vanished }
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

export async function takeBackup(
  config: Readonly<Config>,
  target: string,
  clock: Clock,
  progress: (line: string) => void,
): Promise<BackupSummary> {
  const layout = embeddedLayout(config, 'backup')
  await checkSources(layout, target)
  const createdAt = clock.now()
  await makePrivateDir(target)
  const files: BackupFile[] = []

  progress(`database: copying ${layout.databasePath} (online backup)`)
  await snapshotSqlite(layout.databasePath, join(target, DATABASE_FILE))
  const databaseCopiedAt = clock.now()
  await makePrivateFile(join(target, DATABASE_FILE))
  const check = finishCopy(join(target, DATABASE_FILE))
  if (check !== 'ok') throw new BackupError(`the database copy fails SQLite's quick_check: ${check}`)
  const database = await hashFile(join(target, DATABASE_FILE))
  files.push({ path: DATABASE_FILE, role: 'database', ...database })
  progress(`database: ${megabytes(database.size)} copied as of ${databaseCopiedAt.toISOString()}`)

  const keptFiles: string[] = []
  for (const kept of layout.keptFiles) {
    try {
      files.push({
        path: kept.name,
        role: kept.role,
        ...(await copyWithHash(keptFilePath(layout, kept.name), join(target, kept.name))),
      })
      keptFiles.push(kept.name)
      progress(`${kept.name}: copied`)
    } catch (error) {
      if (!isMissing(error)) throw error
      progress(
        `${kept.name}: absent (${kept.role === 'secret' ? 'PARAPH_SECRET' : 'SIGNING_CERT_P12'} is then kept elsewhere: keep it with the backup)`,
      )
    }
  }

  progress(`blobs: copying ${layout.blobRoot}`)
  const { vanished } = await copyBlobs(layout, target, files, progress)
  const blobs = files.filter((f) => f.role === 'blob')
  const blobBytes = blobs.reduce((sum, f) => sum + f.size, 0)
  progress(
    `blobs: ${blobs.length} files, ${megabytes(blobBytes)}${vanished ? `; ${vanished} deleted meanwhile, skipped` : ''}`,
  )

  await writeManifest(target, {
    format: 'paraph-backup',
    version: MANIFEST_VERSION,
    created_at: createdAt.toISOString(),
    database_copied_at: databaseCopiedAt.toISOString(),
    files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  })
  return { dir: target, databaseBytes: database.size, blobs: blobs.length, blobBytes, vanished, keptFiles }
}

/** Written to a temporary name, then renamed: manifest.json exists only whole. */
async function writeManifest(target: string, manifest: Manifest): Promise<void> {
  const path = join(target, MANIFEST_FILE)
  await writeFile(`${path}.tmp`, `${JSON.stringify(manifest, null, 1)}\n`, {
    flush: true,
    mode: PRIVATE_FILE_MODE,
  })
  await makePrivateFile(`${path}.tmp`)
  await rename(`${path}.tmp`, path)
}
