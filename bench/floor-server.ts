// The floor of GET /v1/submissions/{id}: bare Fastify doing nothing but Paraph's own read of the
// submission, its submitters and its template's fields (the same function, the same raw-row path)
// and the same mapping to JSON, on the database a Paraph server filled. No auth, rate limit, logging, request
// ids or response schema. No implementation of the route can be cheaper than this on this machine,
// so its ratio to the bare route tells how much of a target a database read leaves room for.
import Fastify from 'fastify'
import { openDatabase } from '../src/db/database.ts'
import { systemClock } from '../src/lib/clock.ts'
import { readSubmission } from '../src/submissions/get-submission.ts'

const url = process.env.FLOOR_DATABASE_URL ?? ''
const accountId = process.env.FLOOR_ACCOUNT_ID ?? ''
const port = Number(process.env.PORT)
if (!url || !accountId || !Number.isInteger(port)) {
  throw new Error('floor-server: set FLOOR_DATABASE_URL, FLOOR_ACCOUNT_ID and PORT')
}

const database = openDatabase(
  url.startsWith('sqlite:')
    ? { engine: 'sqlite', path: url.slice('sqlite:'.length) }
    : { engine: 'postgres', url },
)
const scope = { accountId, environment: 'test' as const }
const urls = { publicUrl: 'http://127.0.0.1:3000', signingUrl: 'http://127.0.0.1:3000/s/' }
/** Signs the embed URLs of signer groups' members; the bench's submissions have none. */
const embed = new Uint8Array(32)

const app = Fastify({ logger: false })
app.get('/healthz', async () => ({ status: 'ok' }))
app.get<{ Params: { id: string } }>('/v1/submissions/:id', async (request, reply) => {
  const found = await readSubmission(
    { db: database.db, config: urls, keys: { embed }, clock: systemClock },
    scope,
    request.params.id,
  )
  if (!found) return reply.code(404).send({ error: 'not found' })
  return found
})

const address = await app.listen({ port, host: '127.0.0.1' })
console.log(`floor listening on ${address}`)

const stop = () => void app.close().then(() => database.close())
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
