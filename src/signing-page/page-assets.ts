// The signing page's own script, style sheet and handwriting font (src/signing-page/page/), bundled
// by esbuild — by `npm run build` into dist/web/, or once per process on first use when run from the
// sources (tests) — minified, named by content hash (cached for a year by browsers), and kept in
// memory precompressed with brotli and gzip.
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
} from '../lib/web-bundle.ts'

export const ASSET_PREFIX = '/signing-page/assets/'

export interface PageAssets {
  /** URL paths of the entry script and style sheet, for the HTML shell. */
  script: string
  stylesheet: string
  /** By file name (the part after ASSET_PREFIX). */
  files: Map<string, WebAsset>
}

export const pageAssets = bundledOnce(() =>
  FROM_BUILD ? loadWebBundle<PageAssets>(PAGE_BUNDLE) : bundlePage(),
)

/** The folder of dist/web/ holding the signing page's files. */
export const PAGE_BUNDLE = 'signing-page'

/** Bundles the signing page from its sources (for `npm run build`, and in tests). */
export async function bundlePage(): Promise<PageAssets> {
  const root = checkoutRoot()
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
  const files = webAssets(result.outputFiles)
  return { ...entryPaths(files, ASSET_PREFIX, 'page'), files }
}
