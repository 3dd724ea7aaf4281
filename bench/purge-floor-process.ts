// The purge scenario's floor (bench/scenarios/purge.ts) in a process of its own, as the purge runs in
// bench/purge-process.ts, so the GET loop in the bench process can be timed beside it: one UPDATE of
// `purged_at` per submission, each its own transaction, by the raw driver (better-sqlite3 with the
// app's pragmas, or pg), then the deletion of as many folders of the same 3 files, each on its own —
// the least work any purge can do. The folders are written by the bench beforehand (not timed).
// Prints its start line, then how long each half took.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'

const databaseUrl = process.env.DATABASE_URL ?? ''
const ids = (await readFile(process.env.PURGE_FLOOR_IDS ?? '', 'utf8')).split('\n').filter(Boolean)
const folderRoot = process.env.PURGE_FLOOR_FOLDERS ?? ''

/** One UPDATE of purged_at per submission, each its own transaction, by the raw driver. */
async function floorUpdates(): Promise<number> {
  const at = new Date().toISOString()
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new BetterSqlite3(databaseUrl.slice('sqlite:'.length))
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    db.pragma('secure_delete = ON')
    try {
      const update = db.prepare('update submissions set purged_at = ? where id = ?')
      const one = db.transaction((id: string) => update.run(at, id))
      const started = performance.now()
      for (const id of ids) one.immediate(id)
      return performance.now() - started
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const started = performance.now()
    for (const id of ids) {
      await client.query('begin')
      await client.query({
        name: 'floor',
        text: 'update submissions set purged_at = $1 where id = $2',
        values: [at, id],
      })
      await client.query('commit')
    }
    return performance.now() - started
  } finally {
    await client.end()
  }
}

/** The folders `sub_0` … written by the bench, each removed on its own. */
async function floorFolders(): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < ids.length; i++)
    await rm(join(folderRoot, `sub_${i}`), { recursive: true, force: true })
  return performance.now() - started
}

console.log(JSON.stringify({ started: Date.now() }))
const dbMs = await floorUpdates()
const fsMs = await floorFolders()
console.log(JSON.stringify({ floor: true, dbMs, fsMs }))
