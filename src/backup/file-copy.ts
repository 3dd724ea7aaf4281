// Streams for backup and restore: copy a file while hashing what was read (so the manifest describes
// the bytes written, even for a file replaced meanwhile), hash a file, walk a folder.
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { open, opendir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { hashFile } from '../lib/hash-file.ts'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../lib/private-files.ts'

export { hashFile }

export interface Measured {
  size: number
  sha256: string
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

/** Copies `source` to `target` (a new private file, synced), returning the size and hash of the copy. */
export async function copyWithHash(source: string, target: string): Promise<Measured> {
  // Opened first: a source that does not exist (a blob deleted meanwhile) leaves no empty copy.
  const input = await open(source, 'r')
  await makePrivateDir(dirname(target)).catch(async (error) => {
    await input.close()
    throw error
  })
  const hash = createHash('sha256')
  let size = 0
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      size += chunk.length
      done(null, chunk)
    },
  })
  await pipeline(
    input.createReadStream({ highWaterMark: 1024 * 1024 }),
    measure,
    createWriteStream(target, { flags: 'wx', flush: true, mode: PRIVATE_FILE_MODE }),
  )
  await makePrivateFile(target)
  return { size, sha256: hash.digest('hex') }
}

/**
 * Every file under `root`, as a slash-separated path relative to it. A folder that vanishes while
 * walked (a purged draft's page images) is skipped; a missing root yields nothing.
 */
export async function* walkFiles(root: string, prefix = ''): AsyncGenerator<string> {
  let dir: Awaited<ReturnType<typeof opendir>>
  try {
    dir = await opendir(join(root, prefix))
  } catch (error) {
    if (isMissing(error)) return
    throw error
  }
  for await (const entry of dir) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) yield* walkFiles(root, rel)
    else if (entry.isFile()) yield rel
  }
}

/** True when `dir` does not exist or holds nothing. */
export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    const handle = await opendir(dir)
    const first = await handle.read()
    await handle.close()
    return first === null
  } catch (error) {
    if (isMissing(error)) return true
    throw error
  }
}

/** Runs `work` on every item with at most `limit` at a time. */
export async function eachLimited<T>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>()
  for await (const item of items) {
    const task: Promise<void> = work(item).finally(() => running.delete(task))
    running.add(task)
    if (running.size >= limit) await Promise.race(running)
  }
  await Promise.all(running)
}
