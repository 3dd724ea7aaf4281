// The floor of POST /s/{slug}/sign: bare Fastify taking the same JSON body, decoding the
// same PNG data URLs and hashing them, then one transaction on the database a Paraph server filled:
// the signer by its slug, its submission, the signer's values and signed_at written, the
// submission's updated_at. No PNG decoding to pixels, no blob write, no field checks, no journal
// event, no outbox row, no logging: a sign request cannot cost less than this on this machine.
import { createHash } from 'node:crypto'
import Fastify from 'fastify'
import { openDatabase } from '../src/db/database.ts'

const url = process.env.FLOOR_DATABASE_URL ?? ''
const port = Number(process.env.PORT)
if (!url || !Number.isInteger(port)) throw new Error('sign-floor-server: set FLOOR_DATABASE_URL and PORT')

const { db, close } = openDatabase(
  url.startsWith('sqlite:')
    ? { engine: 'sqlite', path: url.slice('sqlite:'.length) }
    : { engine: 'postgres', url },
)

const app = Fastify({ logger: false, bodyLimit: 4.5 * 1024 * 1024 })
app.get('/healthz', async () => ({ status: 'ok' }))
app.post<{ Params: { slug: string }; Body: { values: Record<string, string> } }>(
  '/s/:slug/sign',
  async (request, reply) => {
    const values: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.body.values)) {
      const image = /^data:image\/png;base64,(.+)$/.exec(value)
      values[name] = image
        ? createHash('sha256').update(Buffer.from(image[1]!, 'base64')).digest('hex')
        : value
    }
    const now = new Date().toISOString()
    const signed = await db.transaction().execute(async (tx) => {
      const submitter = await tx
        .selectFrom('submitters')
        .selectAll()
        .where('signing_slug', '=', request.params.slug)
        .executeTakeFirst()
      if (!submitter) return false
      await tx
        .selectFrom('submissions')
        .selectAll()
        .where('id', '=', submitter.submission_id)
        .executeTakeFirst()
      await tx
        .updateTable('submitters')
        .set({ values: JSON.stringify(values), signed_at: now, updated_at: now })
        .where('id', '=', submitter.id)
        .execute()
      await tx
        .updateTable('submissions')
        .set({ updated_at: now })
        .where('id', '=', submitter.submission_id)
        .execute()
      return true
    })
    return signed ? { status: 'signed' } : reply.code(404).send({ error: 'not found' })
  },
)

const address = await app.listen({ port, host: '127.0.0.1' })
console.log(`sign floor listening on ${address}`)

const stop = () => void app.close().then(() => close())
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
