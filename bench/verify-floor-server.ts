// The floor of POST /v1/verify: bare Fastify receiving the same PDF body (application/pdf) and
// hashing it with SHA-256, nothing else: no auth, rate limit, logging, database or byte scan. No
// implementation of the route can answer faster on this machine.
import { createHash } from 'node:crypto'
import Fastify from 'fastify'

const port = Number(process.env.PORT)
if (!Number.isInteger(port)) throw new Error('verify-floor-server: set PORT')

const app = Fastify({ logger: false, bodyLimit: 50 * 1024 * 1024 })
app.addContentTypeParser('application/pdf', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
app.get('/healthz', async () => ({ status: 'ok' }))
app.post('/v1/verify', async (request) => ({
  object: 'verification',
  sha256: createHash('sha256')
    .update(request.body as Buffer)
    .digest('hex'),
}))

const address = await app.listen({ port, host: '127.0.0.1' })
console.log(`verify floor listening on ${address}`)

const stop = () => void app.close()
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
