// What the signing page's and the console's front ends share once esbuild has bundled them
// (src/signing-page/page-assets.ts, src/console/shell/console-assets.ts): the checkout they are read from,
// the files kept in memory precompressed with brotli and gzip under their content-hashed names, and
// where they come from. Run from the sources (tests, tsx), a process bundles them itself on first use;
// run from the build (`npm run build`, bin/paraph.mjs), it reads what the build wrote beside it in
// dist/web/, already compressed: nothing is built when a process starts
// (docs/operations.md#building-and-the-read-only-install).
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { OutputFile } from 'esbuild'
import { Type } from 'typebox'

export interface WebAsset {
  contentType: string
  raw: Buffer
  gzip: Buffer
  brotli: Buffer
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
}

/** The checkout's root: the nearest directory above this module holding package.json. */
export function checkoutRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('the front-end sources are not beside this build')
    dir = parent
  }
  return dir
}

/** Whether this module runs from the build (dist/paraph.mjs) rather than from its TypeScript source. */
export const FROM_BUILD = !import.meta.url.endsWith('.ts')

/** A front end's files and what its HTML shell needs to know of them (entry names, preloads). */
export interface WebBundle {
  files: Map<string, WebAsset>
}

interface BuiltManifest {
  files: Record<string, string>
  shell: Record<string, unknown>
}

/**
 * Writes a front end's bundle to `dir` (each file raw, .br and .gz, and manifest.json), for
 * `npm run build`; loadWebBundle reads it back as it was.
 */
export async function saveWebBundle(dir: string, bundle: WebBundle): Promise<void> {
  await mkdir(dir, { recursive: true })
  const { files, ...shell } = bundle
  const manifest: BuiltManifest = { files: {}, shell }
  for (const [name, asset] of files) {
    manifest.files[name] = asset.contentType
    await writeFile(join(dir, name), asset.raw)
    await writeFile(join(dir, `${name}.br`), asset.brotli)
    await writeFile(join(dir, `${name}.gz`), asset.gzip)
  }
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
}

/** A front end's bundle as `npm run build` wrote it to dist/web/`name`/, beside the server's bundle. */
export async function loadWebBundle<T extends WebBundle>(name: string): Promise<T> {
  const dir = fileURLToPath(new URL(`./web/${name}/`, import.meta.url))
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as BuiltManifest
  const files = new Map<string, WebAsset>()
  for (const [file, contentType] of Object.entries(manifest.files)) {
    const [raw, brotli, gzip] = await Promise.all(
      ['', '.br', '.gz'].map((suffix) => readFile(join(dir, file + suffix))),
    )
    files.set(file, { contentType, raw: raw!, brotli: brotli!, gzip: gzip! })
  }
  return { ...manifest.shell, files } as T
}

/** `make` run once per process on first call; a failure is forgotten so the next call retries. */
export function bundledOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined
      throw error
    })
    return made
  }
}

/** esbuild's output files by name, precompressed. */
export function webAssets(outputs: OutputFile[]): Map<string, WebAsset> {
  const files = new Map<string, WebAsset>()
  for (const file of outputs) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1)
    const raw = Buffer.from(file.contents)
    files.set(name, {
      contentType: TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
      raw,
      gzip: gzipSync(raw, { level: 9 }),
      brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    })
  }
  return files
}

/** URL paths of the entry's script and style sheet (`<entry>.<hash>.js|css`) under `prefix`. */
export function entryPaths(
  files: Map<string, WebAsset>,
  prefix: string,
  entry: string,
): { script: string; stylesheet: string } {
  const names = [...files.keys()]
  const script = names.find((n) => n.startsWith(`${entry}.`) && n.endsWith('.js'))
  const stylesheet = names.find((n) => n.startsWith(`${entry}.`) && n.endsWith('.css'))
  if (!script || !stylesheet) throw new Error(`the ${entry} bundle lacks its script or style sheet`)
  return { script: prefix + script, stylesheet: prefix + stylesheet }
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

/** The schema of an asset route (`…/assets/:name`): the params and the binary answer. */
export const ASSET_ROUTE_SCHEMA = {
  params: Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
  response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
}

/**
 * An asset's answer: kept a year by browsers (its name changes with its content), never sniffed,
 * brotli or gzip as the browser accepts.
 */
export function assetAnswer(
  asset: WebAsset,
  reply: { header(name: string, value: string): unknown },
  acceptEncoding: string | undefined,
): Buffer {
  const encoding = chooseEncoding(acceptEncoding)
  reply.header('content-type', asset.contentType)
  reply.header('cache-control', 'public, max-age=31536000, immutable')
  reply.header('vary', 'accept-encoding')
  reply.header('x-content-type-options', 'nosniff')
  if (encoding) reply.header('content-encoding', encoding)
  return encoding === 'br' ? asset.brotli : encoding === 'gzip' ? asset.gzip : asset.raw
}
