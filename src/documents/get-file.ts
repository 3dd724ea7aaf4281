// GET /files/{token} — the bytes behind a signed file URL of the filesystem store.
import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { attachmentDisposition } from '../lib/content-disposition.ts'
import { readFileToken } from './file-urls.ts'
import { isPurgedFile } from './purged-files.ts'

export const getFile = defineRoute({
  operationId: 'getFile',
  method: 'GET',
  url: '/files/:token',
  summary: 'Download a file by its signed URL',
  description:
    'The URLs come from GET /v1/submissions/{id}/documents, GET /v1/submitters/{id} (signed images, `image/png`) and the signing form; they expire after 1 hour.',
  tag: 'Files',
  auth: 'none',
  perIpLimit: true,
  produces: 'application/pdf',
  schema: {
    params: Type.Object(
      { token: Type.String({ minLength: 1, maxLength: 4096 }) },
      { additionalProperties: false },
    ),
    response: { 200: Type.Unsafe<Readable>({ type: 'string', contentMediaType: 'application/pdf' }) },
  },
  errors: ['invalid_file_url', 'resource_not_found', 'submission_purged'],
  handler: async ({ params, reply }, { keys, clock, blobs, db }) => {
    const { blobKey, name } = readFileToken(keys.files, params.token, clock.now())
    const stream = await blobs.stream(blobKey)
    if (!stream) {
      if (await isPurgedFile(db, blobKey)) {
        throw new ApiError('submission_purged', 'This file was deleted with its submission (purged).')
      }
      throw new ApiError('resource_not_found', 'This file no longer exists.')
    }
    reply.header('content-type', name.toLowerCase().endsWith('.png') ? 'image/png' : 'application/pdf')
    reply.header('content-disposition', attachmentDisposition(name))
    reply.header('cache-control', 'private, max-age=300')
    return stream
  },
})
