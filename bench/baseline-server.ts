// The yardstick for bench rows: a bare Fastify 5 route answering the same JSON as Paraph's
// GET /v1/health, with no auth, rate limit, logging or request ids. Run in its own process by run.ts.
import Fastify from 'fastify'

const BODY = {
  object: 'health',
  status: 'ok',
  environment: 'test',
  livemode: false,
  account_id: 'acct_AAAAAAAAAAAAAAAAAAAAAAAA',
}

const port = Number(process.env.PORT)
if (!Number.isInteger(port) || port <= 0) throw new Error('baseline-server: set PORT to a free port')

const app = Fastify({ logger: false })
app.get('/v1/health', async () => BODY)

const address = await app.listen({ port, host: '127.0.0.1' })
console.log(`baseline listening on ${address}`)

const stop = () => void app.close()
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
