// The console's own script and style sheet (src/console/app/), bundled by esbuild once per process
// on first use, as the signing page's are (page-assets.ts): minified ES modules split by route
// (a page imported with `import()` becomes its own chunk, loaded when first opened), named by
// content hash, kept in memory precompressed with brotli and gzip.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type { PageAsset } from '../signing-page/page-assets.ts'

export const CONSOLE_ASSET_PREFIX = '/console/assets/'

export interface ConsoleAssets {
  /** URL paths of the entry script and style sheet, for the HTML shell. */
  script: string
  stylesheet: string
  /** Chunks the entry imports statically: preloaded by the shell, so they load beside it, not after. */
  preload: string[]
  /** By file name (the part after CONSOLE_ASSET_PREFIX). */
  files: Map<string, PageAsset>
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('the console sources are not beside this build')
    dir = parent
  }
  return dir
}

let assets: Promise<ConsoleAssets> | undefined

export function consoleAssets(): Promise<ConsoleAssets> {
  assets ??= bundleConsole().catch((error: unknown) => {
    assets = undefined
    throw error
  })
  return assets
}

async function bundleConsole(): Promise<ConsoleAssets> {
  const root = repositoryRoot()
  const result = await build({
    entryPoints: [join(root, 'src/console/app/main.tsx')],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    splitting: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
    outdir: join(root, 'dist/console'),
    entryNames: 'console.[hash]',
    chunkNames: 'chunk.[hash]',
    publicPath: CONSOLE_ASSET_PREFIX,
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
  })
  const files = new Map<string, PageAsset>()
  let script = ''
  let stylesheet = ''
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1)
    const extension = name.slice(name.lastIndexOf('.'))
    const raw = Buffer.from(file.contents)
    files.set(name, {
      contentType: TYPES[extension] ?? 'application/octet-stream',
      raw,
      gzip: gzipSync(raw, { level: 9 }),
      brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    })
    if (name.startsWith('console.') && extension === '.js') script = CONSOLE_ASSET_PREFIX + name
    if (name.startsWith('console.') && extension === '.css') stylesheet = CONSOLE_ASSET_PREFIX + name
  }
  if (!script || !stylesheet) throw new Error('the console bundle lacks its script or style sheet')
  const entry = Object.entries(result.metafile.outputs).find(([path]) =>
    path.endsWith(script.slice(CONSOLE_ASSET_PREFIX.length)),
  )
  const preload = (entry?.[1].imports ?? [])
    .filter((i) => i.kind === 'import-statement')
    .map((i) => CONSOLE_ASSET_PREFIX + i.path.slice(i.path.lastIndexOf('/') + 1))
  return { script, stylesheet, preload, files }
}
