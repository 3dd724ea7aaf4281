// A long-lived tag finder, started by src/child-pool/child-pool.ts under an OS memory limit: one JSON
// request per stdin line, one small JSON answer per line. Parsing a 4 MB document with parse5
// takes the better part of a second (about 1 s for 4 MB of text, 1.8 s for 90 000 elements,
// measured): in the server, that second would stall every other request. Imports only parse5,
// node built-ins and small leaf modules, since bin/paraph.mjs bundles it on its own.
import { readFile, writeFile } from 'node:fs/promises'
import { serveRequests } from '../child-pool/child-loop.ts'
import type { TagAnswer, Tagging, TagRequest } from './html-tag-protocol.ts'
import { markTags, TagSyntaxError } from './html-tags.ts'
import { RenderError } from './render-error.ts'

async function tag({ input, output, markPrefix, source }: TagRequest): Promise<Tagging> {
  const marked = markTags(await readFile(input, 'utf8'), markPrefix, source)
  await writeFile(output, marked.html, { mode: 0o600 })
  return { ok: true, tags: marked.tags }
}

function failureOf(error: unknown): Tagging {
  if (error instanceof TagSyntaxError) return { ok: false, reason: 'tag', message: error.message }
  if (error instanceof RenderError) return { ok: false, reason: 'invalid', message: error.message }
  const message = error instanceof Error ? error.message : String(error)
  return { ok: false, reason: 'failed', cause: message.split('\n')[0]!.slice(0, 160) }
}

serveRequests<TagRequest>(async (request): Promise<TagAnswer> => {
  let tagging: Tagging
  try {
    tagging = await tag(request)
  } catch (error) {
    tagging = failureOf(error)
  }
  return { id: request.id, ...tagging }
})
