// Where the embedded default keeps its data (docs/operations.md#configuration): the SQLite file,
// the `file:` blob folder, and the two files Paraph generates once in DATA_DIR when PARAPH_SECRET
// and SIGNING_CERT_P12 are not set. Backup and restore cover exactly these; other set-ups are
// refused with what to do instead.
import { join, relative, resolve, sep } from 'node:path'
import type { Config } from '../config.ts'
import { SELF_SIGNED_FILE } from '../pdf/seal/self-signed-seal.ts'
import { FsBlobStore } from '../storage/fs-blob-store.ts'
import { createBlobStore } from '../storage/storage-url.ts'

/** A refusal to report in one line (the CLI prints it and exits 1). */
export class BackupError extends Error {}

/** The file lib/secret-file.ts keeps in DATA_DIR. */
export const SECRET_FILE = 'paraph-secret'

export interface DataLayout {
  dataDir: string
  databasePath: string
  blobRoot: string
  /** DATA_DIR's generated files a restored service needs (cursors, file links, cookies, seals). */
  keptFiles: Array<{ role: 'secret' | 'sealing_identity'; name: string }>
}

const DOCS = 'docs/operations.md, "Backups"'

/** The embedded default's paths, or a BackupError naming what to use instead. */
export function embeddedLayout(config: Readonly<Config>, command: 'backup' | 'restore'): DataLayout {
  if (config.database.engine === 'postgres') {
    throw new BackupError(
      `${command} covers the embedded SQLite database only; DATABASE_URL is PostgreSQL: use pg_dump, pg_basebackup or point-in-time recovery, then back up the blob store (see ${DOCS})`,
    )
  }
  if (config.database.path === ':memory:') {
    throw new BackupError(`${command}: DATABASE_URL is sqlite::memory:, which keeps nothing to back up`)
  }
  const store = createBlobStore(config.storageUrl)
  if (!(store instanceof FsBlobStore)) {
    throw new BackupError(
      `${command} covers the file: blob store only; STORAGE_URL is S3: use bucket versioning or replication, after backing up the database (see ${DOCS})`,
    )
  }
  return {
    dataDir: config.dataDir,
    databasePath: config.database.path,
    blobRoot: store.root,
    keptFiles: [
      { role: 'secret', name: SECRET_FILE },
      { role: 'sealing_identity', name: SELF_SIGNED_FILE },
    ],
  }
}

/** True when `path` is `folder` or lies inside it. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path))
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep))
}

export function keptFilePath(layout: DataLayout, name: string): string {
  return join(layout.dataDir, name)
}
