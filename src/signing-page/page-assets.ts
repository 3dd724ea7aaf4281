// The signing page's own script, style sheet and handwriting font (src/signing-page/page/), bundled
// by esbuild once per process on first use — no build step to forget, as bin/paraph.mjs does for
// the server — minified, named by content hash (cached for a year by browsers), and kept in memory
// precompressed with brotli and gzip.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'

export const ASSET_PREFIX = '/signing-page/assets/'

export interface PageAsset {
  contentType: string
  raw: Buffer
  gzip: Buffer
  brotli: Buffer
}

export interface PageAssets {
  /** URL paths of the entry script and style sheet, for the HTML shell. */
  script: string
  stylesheet: string
  /** By file name (the part after ASSET_PREFIX). */
  files: Map<string, PageAsset>
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
}

/** The checkout's root: the nearest directory above this module holding package.json. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('the signing page sources are not beside this build')
    dir = parent
  }
  return dir
}

let assets: Promise<PageAssets> | undefined

export function pageAssets(): Promise<PageAssets> {
  assets ??= bundlePage().catch((error: unknown) => {
    assets = undefined
    throw error
  })
  return assets
}

async function bundlePage(): Promise<PageAssets> {
  const root = repositoryRoot()
  const result = await build({
    entryPoints: [join(root, 'src/signing-page/page/main.ts')],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    // Browsers of the last few years, phones included; nothing newer is used.
    target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
    outdir: join(root, 'dist/signing-page'),
    entryNames: 'page.[hash]',
    assetNames: '[name].[hash]',
    publicPath: ASSET_PREFIX,
    loader: { '.woff2': 'file', '.woff': 'file' },
    legalComments: 'none',
    logLevel: 'silent',
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
    if (name.startsWith('page.') && extension === '.js') script = ASSET_PREFIX + name
    if (name.startsWith('page.') && extension === '.css') stylesheet = ASSET_PREFIX + name
  }
  if (!script || !stylesheet) throw new Error('the signing page bundle lacks its script or style sheet')
  return { script, stylesheet, files }
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>()
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    offered.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  if ((offered.get('br') ?? 0) > 0) return 'br'
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip'
  return null
}
