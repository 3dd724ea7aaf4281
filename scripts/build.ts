// `npm run build`: the one build, run by scripts/install.sh and by the image build. It bundles the
// server, its child processes and the two web front ends into dist/, which bin/paraph.mjs and every
// process then run from without building or writing anything
// (docs/operations.md#building-and-the-read-only-install: a read-only install). The new dist/ is
// made beside the old one and swapped in whole, so a server still running from the old files keeps
// finding its child bundles, and a failed build leaves the old one in place.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'esbuild'
import { bundleConsole, CONSOLE_BUNDLE } from '../src/console/shell/console-assets.ts'
import { saveWebBundle } from '../src/lib/web-bundle.ts'
import { bundlePage, PAGE_BUNDLE } from '../src/signing-page/page-assets.ts'

const root = join(import.meta.dirname, '..')

/** Entry points and their bundle's name in dist/ (the child pools find theirs beside the server's). */
export const ENTRIES: [source: string, bundle: string][] = [
  ['src/cli/main.ts', 'paraph.mjs'],
  ['src/pdf/read/inspector-child.ts', 'pdf-inspector.mjs'],
  ['src/pdf/finalizer/finalizer-child.ts', 'pdf-finalizer.mjs'],
  ['src/render/docx-child.ts', 'docx-converter.mjs'],
  ['src/render/html-tag-child.ts', 'html-tagger.mjs'],
]

export async function buildInto(out: string): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(
      ENTRIES.map(([source, bundle]) => [bundle.replace(/\.mjs$/, ''), join(root, source)]),
    ),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
    outdir: out,
  })
  const [page, console] = await Promise.all([bundlePage(), bundleConsole()])
  await saveWebBundle(join(out, 'web', PAGE_BUNDLE), page)
  await saveWebBundle(join(out, 'web', CONSOLE_BUNDLE), console)
  await writeFile(join(out, 'build.json'), `${JSON.stringify({ built_at: new Date().toISOString() })}\n`)
}

/** Builds into a new dist/ swapped in whole; resolves with the time it took in ms. */
export async function buildDist(): Promise<number> {
  const started = performance.now()
  const dist = join(root, 'dist')
  const staging = `${dist}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await buildInto(staging)
    const old = `${dist}.${randomBytes(4).toString('hex')}.old`
    if (existsSync(dist)) await rename(dist, old)
    await rename(staging, dist)
    await rm(old, { recursive: true, force: true })
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  return Math.round(performance.now() - started)
}

if (process.argv[1] === import.meta.filename) {
  process.stdout.write(`built dist/ in ${await buildDist()} ms\n`)
}
