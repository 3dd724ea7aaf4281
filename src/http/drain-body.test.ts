// A body over a route's limit gets the 413 envelope, read by the client, not a reset.
// The client runs in a process of its own: in-process, client and server share one event loop and
// the race that loses the answer (the server closing with unread bytes: a reset) never shows.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { startTestApp, type TestApp } from '../../test/harness.ts'

// Sends `count` POSTs of `size` bytes, ten at a time, with undici's fetch (Node's own); prints one
// line per answer: its status and error code, or the network error's code.
const CLIENT = `
const [url, key, size, count] = process.argv.slice(1)
const body = Buffer.alloc(Number(size), 'a')
async function one(i) {
  try {
    const res = await fetch(url, { method: 'POST', body, headers: {
      authorization: 'Bearer ' + key, 'content-type': 'application/json', 'idempotency-key': 'big-' + size + '-' + i } })
    const text = await res.text()
    return res.status + ' ' + (JSON.parse(text).error?.code ?? '')
  } catch (error) {
    return 'network ' + (error.cause?.code ?? error.message)
  }
}
const answers = []
for (let i = 0; i < Number(count); i += 10)
  answers.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => one(i + j)))))
console.log(answers.join('\\n'))
`

describe('a body over the limit: the client reads the 413', () => {
  let t: TestApp
  let key: string
  let url: string
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_TEST: '1000' } })
    key = (await t.account()).testKey
    url = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1/submissions/from_pdf`
  })
  after(() => t.close())

  const send = async (size: number, count: number, withKey = key) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', CLIENT, url, withKey, String(size), String(count)],
      { maxBuffer: 1024 * 1024 },
    )
    return stdout.trim().split('\n')
  }

  for (const size of [6_700_000, 20_000_000]) {
    it(`20 × 413 request_too_large for ${size / 1e6} MB bodies sent 10 at a time`, async () => {
      const answers = await send(size, 20)
      assert.deepEqual(answers, Array(20).fill('413 request_too_large'))
    })
  }

  it('a refusal before the body is read (401) reaches the client too', async () => {
    const answers = await send(6_700_000, 10, `sk_test_${'x'.repeat(32)}`)
    assert.deepEqual(answers, Array(10).fill('401 invalid_api_key'))
  })
})
