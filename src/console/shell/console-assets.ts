// The console's own script and style sheet (src/console/app/), bundled by esbuild as the signing
// page's are (page-assets.ts: by `npm run build`, or on first use from the sources): minified ES modules split by route
// (a page imported with `import()` becomes its own chunk, loaded when first opened), named by
// content hash, kept in memory precompressed with brotli and gzip.
import { join } from 'node:path'
import { build } from 'esbuild'
import {
  bundledOnce,
  checkoutRoot,
  entryPaths,
  FROM_BUILD,
  loadWebBundle,
  type WebAsset,
  webAssets,
} from '../../lib/web-bundle.ts'

export const CONSOLE_ASSET_PREFIX = '/console/assets/'

export interface ConsoleAssets {
  /** URL paths of the entry script and style sheet, for the HTML shell. */
  script: string
  stylesheet: string
  /** Chunks the entry imports statically: preloaded by the shell, so they load beside it, not after. */
  preload: string[]
  /** By file name (the part after CONSOLE_ASSET_PREFIX). */
  files: Map<string, WebAsset>
}

export const consoleAssets = bundledOnce(() =>
  FROM_BUILD ? loadWebBundle<ConsoleAssets>(CONSOLE_BUNDLE) : bundleConsole(),
)

/** The folder of dist/web/ holding the console's files. */
export const CONSOLE_BUNDLE = 'console'

/** Bundles the console from its sources (for `npm run build`, and in tests). */
export async function bundleConsole(): Promise<ConsoleAssets> {
  const root = checkoutRoot()
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
  const files = webAssets(result.outputFiles)
  const { script, stylesheet } = entryPaths(files, CONSOLE_ASSET_PREFIX, 'console')
  const entry = Object.entries(result.metafile.outputs).find(([path]) =>
    path.endsWith(script.slice(CONSOLE_ASSET_PREFIX.length)),
  )
  const preload = (entry?.[1].imports ?? [])
    .filter((i) => i.kind === 'import-statement')
    .map((i) => CONSOLE_ASSET_PREFIX + i.path.slice(i.path.lastIndexOf('/') + 1))
  return { script, stylesheet, preload, files }
}
