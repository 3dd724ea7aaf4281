// The floor of the webhook throughput row (issue #13), run as its own process like Paraph's worker:
// a bare undici loop POSTing the same signed bodies (read from Paraph's deliveries) to the same
// receiver, as many at once as Paraph's dispatcher sends (CONCURRENCY workers over the list),
// through undici's default keep-alive agent; nothing else. Prints `{"started": epoch ms}` first.
// Usage: node --import tsx bench/webhook-floor.ts DELIVERIES_JSON CONCURRENCY
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request } from 'undici'

const [file, concurrency] = process.argv.slice(2) as [string, string]
const deliveries = JSON.parse(readFileSync(file, 'utf8')) as Array<{
  url: string
  body: string
  secret: string
}>
console.log(JSON.stringify({ started: Date.now() }))
let next = 0
async function loop(): Promise<void> {
  while (next < deliveries.length) {
    const { url, body, secret } = deliveries[next++]!
    const t = Math.floor(Date.now() / 1000)
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    const response = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'paraph-signature': `t=${t},v1=${v1}` },
    })
    await response.body.dump()
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, loop))
console.log(JSON.stringify({ finished: Date.now() }))
