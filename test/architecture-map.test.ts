// docs/architecture.md is the map of the code, and it must not drift as its
// predecessor did. Fails when a folder of src/ (every directory directly under src/, and every
// subfolder of src/pdf/ and src/console/) is missing from it, and when a path it writes in
// backticks (`src/…`, `test/…`, `bench/…`, `scripts/…`, `docs/…`, `deploy/…`) does not exist.
// Modelled on docs-links.test.ts; touches no database, so it runs in both engine passes as is.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MAP = 'docs/architecture.md'

/** Folders whose subfolders the map must each name, besides src/ itself. */
const SPLIT_FOLDERS = ['src/pdf', 'src/console']

/** Where a path written in the map may start. */
const PATH_ROOTS = ['src/', 'test/', 'bench/', 'scripts/', 'docs/', 'deploy/']

const FENCE = /^\s{0,3}(```|~~~)/

/** The inline code spans of a Markdown text, those inside fenced code blocks left out. */
function codeSpans(text: string): string[] {
  const spans: string[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const opening = FENCE.exec(line)?.[1]
    if (opening !== undefined) {
      if (fence === null) fence = opening
      else if (opening === fence) fence = null
      continue
    }
    if (fence !== null) continue
    for (const match of line.matchAll(/(`+)(.+?)\1(?!`)/g)) spans.push(match[2]!.trim())
  }
  return spans
}

/**
 * The repository paths the map writes: code spans starting with one of PATH_ROOTS, without an
 * anchor. A path with a placeholder (`src/<capability>/<operation-id>.ts`) stands for the folder
 * before its first `<`.
 */
function mapPaths(text: string): string[] {
  const paths = codeSpans(text)
    .filter((span) => PATH_ROOTS.some((root) => span.startsWith(root)) && !/\s/.test(span))
    .map((span) => span.split('#')[0]!)
    .map((path) => (path.includes('<') ? path.slice(0, path.lastIndexOf('/', path.indexOf('<')) + 1) : path))
  return [...new Set(paths)]
}

/** Folders the map must name, each as `src/name/`: `dirs(folder)` lists a folder's subfolders. */
function foldersToMap(dirs: (folder: string) => string[]): string[] {
  const top = dirs('src').map((name) => `src/${name}/`)
  const split = SPLIT_FOLDERS.flatMap((folder) => dirs(folder).map((name) => `${folder}/${name}/`))
  return [...top, ...split].sort()
}

/** The folders not written in the map as a code span of their own. */
function missingFolders(text: string, folders: string[]): string[] {
  const spans = new Set(codeSpans(text))
  return folders.filter((folder) => !spans.has(folder))
}

/** The paths of the map that do not exist. */
function deadPaths(text: string, exists: (path: string) => boolean): string[] {
  return mapPaths(text).filter((path) => !exists(path))
}

function subfolders(folder: string): string[] {
  const dir = join(ROOT, folder)
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}

const exists = (path: string) => existsSync(join(ROOT, path))

describe('the architecture map checker', () => {
  it('reads code spans outside fenced code, double backticks included', () => {
    const text = 'See `src/app.ts` and ``src/a`b.ts``.\n```\n`src/not-here.ts`\n```\n| `src/db/` |\n'
    assert.deepEqual(codeSpans(text), ['src/app.ts', 'src/a`b.ts', 'src/db/'])
  })

  it('takes paths under the known roots, drops anchors, and keeps the folder of a placeholder', () => {
    const text = [
      '`src/app.ts` `docs/api.md#errors` `npm test` `src/db/migrations/<NNNN-name>.ts`',
      '`src/<capability>/<operation-id>.ts` `package.json` `src/a.ts (x)` `src/app.ts`',
    ].join('\n')
    assert.deepEqual(mapPaths(text), ['src/app.ts', 'docs/api.md', 'src/db/migrations/', 'src/'])
  })

  it('lists the folders of src/ and the subfolders of src/pdf/ and src/console/', () => {
    const tree: Record<string, string[]> = {
      src: ['pdf', 'console', 'lib'],
      'src/pdf': ['seal'],
      'src/console': ['app'],
    }
    assert.deepEqual(
      foldersToMap((folder) => tree[folder] ?? []),
      ['src/console/', 'src/console/app/', 'src/lib/', 'src/pdf/', 'src/pdf/seal/'],
    )
  })

  it('reports a folder the map does not name as a code span of its own', () => {
    const text = '| `src/lib/` | ids |\nThe `src/pdf/seal/seal-pades.ts` file.\n'
    assert.deepEqual(missingFolders(text, ['src/lib/', 'src/pdf/seal/']), ['src/pdf/seal/'])
  })

  it('reports a path that does not exist', () => {
    const files = new Set(['src/app.ts', 'src/jobs/', 'src/jobs/define-job.ts'])
    const text = '`src/app.ts` `src/gone.ts` `src/jobs/` `src/jobs/define-job.ts` `src/jobs/other.ts`'
    assert.deepEqual(
      deadPaths(text, (path) => files.has(path)),
      ['src/gone.ts', 'src/jobs/other.ts'],
    )
  })
})

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, MAP), 'utf8')

  it('names every folder of src/ and every subfolder of src/pdf/ and src/console/', () => {
    assert.deepEqual(missingFolders(text, foldersToMap(subfolders)), [])
  })

  it('names no path that does not exist', () => {
    assert.deepEqual(deadPaths(text, exists), [])
  })
})
