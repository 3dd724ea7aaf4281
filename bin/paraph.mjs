#!/usr/bin/env node
// The `paraph` binary. It runs the build in dist/ (`npm run build`, done once by scripts/install.sh
// and by the image build) and builds nothing itself, so an install can be read-only (operations.md
// §9) and processes starting at once share the same files. From a checkout, a build older than the
// sources is run all the same, with a warning naming the newer source: `npm run dev` rebuilds on change.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { runOnSupportedNode } from './supported-node.mjs'

await runOnSupportedNode([fileURLToPath(import.meta.url), ...process.argv.slice(2)])

const root = fileURLToPath(new URL('..', import.meta.url))
const server = join(root, 'dist', 'paraph.mjs')
if (!existsSync(server)) {
  console.error(
    'Paraph is not built: run `npm run build` (scripts/install.sh does) in the checkout, then start again.',
  )
  process.exit(1)
}

/** The newest file under `dir` changed after `time`, if any (a checkout's sources; absent in an image). */
function newerThan(dir, time) {
  if (!existsSync(dir)) return undefined
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    const found = entry.isDirectory()
      ? newerThan(path, time)
      : statSync(path).mtimeMs > time
        ? path
        : undefined
    if (found) return found
  }
  return undefined
}

const newer = newerThan(join(root, 'src'), statSync(server).mtimeMs)
if (newer) {
  console.error(
    `warning: dist/ is older than ${relative(root, newer)}: run \`npm run build\` (or \`npm run dev\`)`,
  )
}
process.setSourceMapsEnabled(true)
await import(pathToFileURL(server).href)
