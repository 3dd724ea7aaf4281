// Finding a document's tags (html-tags.ts) off the server's event loop: in a warm child process
// (html-tag-child.ts through src/child-pool/child-pool.ts) under an OS memory limit and a timeout, since
// parse5 spends up to a second or two on a 4 MB document and every other request would wait.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PoolsByLimits } from '../child-pool/child-pool.ts'
import { LIMITS } from '../limits.ts'
import type { TagAnswer, TagRequest } from './html-tag-protocol.ts'
import type { FoundTag, TagSource } from './html-tags.ts'
import { RenderError } from './render-error.ts'

const MiB = 1024 * 1024

export interface TaggerOptions {
  /** Wall clock from the moment a child takes the document (default LIMITS.htmlTagMs). */
  timeoutMs?: number
  memoryLimitBytes?: number
  poolSize?: number
  /** Whose document (the tag finders are shared fairly between accounts). */
  account?: string
}

// A warm child holds ~50 MB; the element cap (LIMITS.htmlElements) keeps a tree of a 4 MB
// document within a few hundred. Past this limit the child dies and the request fails, never the server.
const DEFAULT_MEMORY_LIMIT_BYTES = 1024 * MiB

const pools = new PoolsByLimits<Omit<TagRequest, 'id'>, TagAnswer>(
  {
    name: 'HTML tag finder',
    // Paths from child-pool.ts: the source beside this file, the bundle beside the server's.
    script: { source: new URL('./html-tag-child.ts', import.meta.url), bundle: 'html-tagger.mjs' },
    // A child that refused or failed may have grown a large tree: start a fresh one.
    recycleAfter: (answer) => !answer.ok,
  },
  { size: 2, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** Kills the tag finders, for a graceful shutdown; a later request starts new ones. */
export function closeHtmlTagger(): void {
  pools.close()
}

/**
 * The document's tags, each replaced by a marker link `${markPrefix}${index}`, and the marked HTML
 * (markTags, in a child). Throws RenderError: `bad_tag` for a bad tag, `refused_html`
 * for a document refused as a whole, `render_failed` when the child fails, dies or times out.
 */
export async function findTags(
  html: string,
  markPrefix: string,
  source: TagSource,
  options: TaggerOptions = {},
): Promise<{ html: string; tags: FoundTag[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-tags-'))
  try {
    const [input, output] = [join(dir, 'document.html'), join(dir, 'marked.html')]
    await writeFile(input, html, { mode: 0o600 })
    const timeoutMs = options.timeoutMs ?? LIMITS.htmlTagMs
    const answer = await pools
      .get(options)
      .run({ input, output, markPrefix, source }, timeoutMs, options.account)
    if (answer.ok) return { html: await readFile(output, 'utf8'), tags: answer.tags }
    switch (answer.reason) {
      case 'tag':
        throw new RenderError('bad_tag', answer.message)
      case 'invalid':
        throw new RenderError('refused_html', answer.message)
      case 'failed':
        throw new RenderError('render_failed', `The document's tags could not be read: ${answer.cause}.`)
      case 'timeout':
        throw new RenderError(
          'render_failed',
          `Reading the document's tags took longer than ${timeoutMs / 1000} s; simplify the document.`,
        )
      case 'crashed':
        throw new RenderError(
          'render_failed',
          "Reading the document's tags took more memory than allowed; simplify the document.",
        )
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
