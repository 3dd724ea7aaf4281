#!/usr/bin/env node
// The `paraph` binary. esbuild bundles the TypeScript sources at every start (a fraction of a
// second) into dist/ and the process runs that bundle: no build step to forget, no stale build,
// and no transpiling loader on the request path (it cost about a tenth of a request's CPU).
import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
mkdirSync(join(root, 'dist'), { recursive: true })

/** Bundles one entry point to dist/ through a temporary file renamed into place. */
async function bundle(entryPoint, outputName) {
  const output = join(root, 'dist', outputName)
  const temporary = `${output}.${randomBytes(6).toString('hex')}.tmp`
  await build({
    entryPoints: [join(root, entryPoint)],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
    outfile: temporary,
  })
  // Several processes may start at once: each renames its own complete file into place.
  renameSync(temporary, output)
  return output
}

// The PDF reader, the final-PDF maker, the DOCX converter and the tag finder run in child processes
// (src/pdf/child-pool.ts), which start from their own small bundles, found beside the main one.
const [output] = await Promise.all([
  bundle('src/cli/main.ts', 'paraph.mjs'),
  bundle('src/pdf/inspector-child.ts', 'pdf-inspector.mjs'),
  bundle('src/pdf/finalizer-child.ts', 'pdf-finalizer.mjs'),
  bundle('src/render/docx-child.ts', 'docx-converter.mjs'),
  bundle('src/render/html-tag-child.ts', 'html-tagger.mjs'),
])
// esbuild's service process would otherwise stay alive, idle, beside the server for its lifetime.
await stop()
process.setSourceMapsEnabled(true)
await import(pathToFileURL(output).href)
