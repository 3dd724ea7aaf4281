// Network rule for this file: connections go to 127.0.0.1 only. Public addresses are judged by the
// pure isAllowedAddress (address-policy.test.ts); private and metadata addresses appear here only as
// URLs or injected DNS answers that the guard must refuse before any socket is opened.
import assert from 'node:assert/strict'
import { subscribe } from 'node:diagnostics_channel'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { isIP } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { PDF_BYTES, startSilentServer, startTestServers, type TestServers } from '../../test/https-server.ts'
import { type Resolve, SafeFetchError, type SafeFetchOptions, safeDownload, safeFetch } from './safe-fetch.ts'

let servers: TestServers
let dir: string
before(async () => {
  servers = await startTestServers()
  dir = await mkdtemp(join(tmpdir(), 'paraph-safe-fetch-'))
})
after(async () => {
  await servers.close()
  await rm(dir, { recursive: true, force: true })
})

// Every connection undici starts, by host name: refusals of URLs must leave this untouched.
const connectAttempts: string[] = []
subscribe('undici:client:beforeConnect', (message) => {
  connectAttempts.push((message as { connectParams: { hostname: string } }).connectParams.hostname)
})

/** The production policy, with small limits. */
const strict: SafeFetchOptions = {
  allowPrivateNetwork: false,
  allowHttp: false,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
  connectTimeoutMs: 2_000,
  totalTimeoutMs: 5_000,
}
/** Development policy: the local test server is reachable. */
const local = (): SafeFetchOptions => ({ ...strict, allowPrivateNetwork: true, ca: servers.ca })
/** The local HTTPS server, by address and by a made-up name that only an injected resolver knows. */
const at = (path: string) => `${servers.https}${path}`
const named = (path: string) => `https://pdf.test:${servers.httpsPort}${path}`

function answers(table: Record<string, string[]>): Resolve & { calls: string[] } {
  const calls: string[] = []
  const resolve = async (hostname: string) => {
    calls.push(hostname)
    const addresses = table[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: isIP(address) as 4 | 6 }))
  }
  return Object.assign(resolve, { calls })
}

async function refused(promise: Promise<unknown>, reason: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof SafeFetchError, String(error))
    assert.equal(error.reason, reason, error.message)
    if (message) assert.match(error.message, message)
    return true
  })
}

async function fetchRefused(url: string, options: SafeFetchOptions, reason: string, message?: RegExp) {
  await refused(safeFetch(url, options), reason, message)
}

/** Refused with `reason` without a connection being started at all. */
async function refusedEarly(url: string, options: SafeFetchOptions, reason: string, message?: RegExp) {
  const [attempts, connections] = [connectAttempts.length, servers.connections()]
  await fetchRefused(url, options, reason, message)
  assert.deepEqual(connectAttempts.slice(attempts), [])
  assert.equal(servers.connections(), connections)
}

describe('URLs refused before any connection (default policy)', () => {
  const local443 = (host: string) => `https://${host}:${servers.httpsPort}/pdf`

  it('address_not_allowed for every spelling of 127.0.0.1 and ::1 (URL parsing canonicalises them)', async () => {
    const spellings = ['0x7f000001', '2130706433', '0177.0.0.1', '127.1', '127.0.0.1']
    for (const host of [...spellings, '[::1]', '[::ffff:127.0.0.1]']) {
      await refusedEarly(local443(host), strict, 'address_not_allowed', /loopback/)
    }
  })

  it('address_not_allowed for metadata, private, CGNAT, unspecified and Azure addresses', async () => {
    const cases: Array<[string, RegExp]> = [
      ['https://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254 is a link-local address/],
      ['https://[fd00:ec2::254]/latest/meta-data/', /unique-local/],
      ['https://10.0.0.5/', /private/],
      ['https://100.64.0.1/', /carrier-grade NAT/],
      [local443('0.0.0.0'), /unspecified/],
      ['https://168.63.129.16/machine', /cloud platform/],
    ]
    for (const [url, message] of cases) await refusedEarly(url, strict, 'address_not_allowed', message)
  })

  it('scheme_not_allowed for HTTP://169.254.169.254, and address_not_allowed once http is allowed', async () => {
    await refusedEarly('HTTP://169.254.169.254/latest/meta-data/', strict, 'scheme_not_allowed')
    const withHttp = { ...strict, allowHttp: true }
    await refusedEarly('HTTP://169.254.169.254/latest/meta-data/', withHttp, 'address_not_allowed')
  })

  it('host_not_allowed for localhost, localhost., *.localhost in any case', async () => {
    for (const host of ['localhost', 'localhost.', 'foo.localhost', 'LOCALHOST', 'a.b.LocalHost.']) {
      await refusedEarly(local443(host), strict, 'host_not_allowed', /local host name/)
    }
  })

  it('invalid_url for credentials in the URL and for what does not parse', async () => {
    await refusedEarly('https://user:secret@pdf.example.com/a.pdf', strict, 'invalid_url', /credentials/)
    await refusedEarly('https://user@pdf.example.com/a.pdf', strict, 'invalid_url', /credentials/)
    await refusedEarly('pdf.example.com/a.pdf', strict, 'invalid_url')
    await refusedEarly('https://[::1/', strict, 'invalid_url')
  })

  it('scheme_not_allowed for ftp:, file: and data:, and for http: unless allowHttp', async () => {
    for (const url of ['ftp://pdf.example.com/a.pdf', 'file:///etc/passwd', 'data:application/pdf,%PDF']) {
      await refusedEarly(url, { ...local(), allowHttp: true }, 'scheme_not_allowed')
    }
    await refusedEarly(`${servers.http}/pdf`, local(), 'scheme_not_allowed', /only https:/)
    const response = await safeFetch(`${servers.http}/pdf`, { ...local(), allowHttp: true })
    assert.equal(response.status, 200)
  })
})

describe('resolved addresses are checked at connect time', () => {
  it('address_not_allowed when a name resolves to a private or metadata address', async () => {
    const options = {
      ...strict,
      resolve: answers({ 'intranet.test': ['10.0.0.5'], 'meta.test': ['169.254.169.254'] }),
    }
    const message = /^intranet\.test resolves to 10\.0\.0\.5, a private address$/
    await fetchRefused('https://intranet.test/a.pdf', options, 'address_not_allowed', message)
    await fetchRefused(
      'https://meta.test/latest/',
      options,
      'address_not_allowed',
      /resolves to 169\.254\.169\.254/,
    )
  })

  it('refuses a name answering a loopback address (DNS rebinding): the local server sees no connection', async () => {
    const connections = servers.connections()
    const resolve = answers({ 'pdf.test': ['127.0.0.1'] })
    await fetchRefused(
      named('/pdf'),
      { ...strict, ca: servers.ca, resolve },
      'address_not_allowed',
      /loopback/,
    )
    assert.deepEqual(resolve.calls, ['pdf.test'])
    assert.equal(servers.connections(), connections)
  })

  it('refuses when any answer is refused, even if another is allowed', async () => {
    // 127.0.0.1 is allowed here and answered first: checking only the address used would connect.
    const connections = servers.connections()
    const resolve = answers({ 'pdf.test': ['127.0.0.1', '10.0.0.5'] })
    const options = { ...strict, ca: servers.ca, resolve, allowAddresses: ['127.0.0.1'] }
    await fetchRefused(named('/pdf'), options, 'address_not_allowed', /10\.0\.0\.5/)
    assert.equal(servers.connections(), connections)
  })

  it('connects to the address the resolver answered, with the name as SNI and Host', async () => {
    const resolve = answers({ 'pdf.test': ['127.0.0.1'] })
    const response = await safeFetch(named('/pdf'), { ...local(), resolve })
    assert.equal(response.status, 200)
    assert.equal(response.finalUrl, named('/pdf'))
    assert.deepEqual(resolve.calls, ['pdf.test'])
    const seen = servers.requests.at(-1)!
    assert.equal(seen.host, `pdf.test:${servers.httpsPort}`)
    assert.equal(seen.servername, 'pdf.test')
  })

  it('dns_failed when the name does not resolve', async () => {
    await fetchRefused(
      'https://nowhere.test/',
      { ...strict, resolve: answers({}) },
      'dns_failed',
      /nowhere\.test/,
    )
  })
})

describe('redirects', () => {
  const to = (target: string, status = 302) =>
    at(`/redirect?to=${encodeURIComponent(target)}&status=${status}`)

  it('follows a redirect to another path and reports the final URL', async () => {
    const response = await safeFetch(to('/pdf'), local())
    assert.equal(response.status, 200)
    assert.equal(response.finalUrl, at('/pdf'))
    assert.ok(response.body.equals(PDF_BYTES))
  })

  it('follows 3 hops with maxRedirects 3 and refuses 4 with too_many_redirects', async () => {
    const three = await safeFetch(at('/chain/3'), local())
    assert.equal(three.finalUrl, at('/chain/0'))
    assert.equal(three.body.toString(), 'arrived')
    await fetchRefused(at('/chain/4'), local(), 'too_many_redirects', /more than 3 times/)
  })

  it('returns a 3xx as is with maxRedirects 0', async () => {
    const response = await safeFetch(to('/pdf', 301), { ...local(), maxRedirects: 0 })
    assert.equal(response.status, 301)
    assert.equal(response.headers.location, '/pdf')
    assert.equal(response.finalUrl, to('/pdf', 301))
  })

  describe('re-checks every rule on each hop', () => {
    // The first hop reaches the local server by name; every other private address stays refused.
    const hop = (target: string) => named(`/redirect?to=${encodeURIComponent(target)}`)
    const viaName = (): SafeFetchOptions => ({
      ...strict,
      ca: servers.ca,
      resolve: answers({ 'pdf.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'] }),
      allowAddresses: ['127.0.0.1'],
    })

    it('refuses a redirect to a name resolving to a metadata address', async () => {
      const requests = servers.requests.length
      const message = /^meta\.test resolves to 169\.254\.169\.254, a link-local address/
      await fetchRefused(hop('https://meta.test/latest/'), viaName(), 'address_not_allowed', message)
      assert.equal(servers.requests.length, requests + 1)
    })

    it('refuses redirects to private IP literals and local names before connecting to them', async () => {
      const targets: Array<[string, string]> = [
        ['https://10.0.0.5/', 'address_not_allowed'],
        ['https://169.254.169.254/latest/meta-data/', 'address_not_allowed'],
        [`https://[::1]:${servers.httpsPort}/pdf`, 'address_not_allowed'],
        [`https://localhost:${servers.httpsPort}/pdf`, 'host_not_allowed'],
        ['https://user:pw@pdf.test/pdf', 'invalid_url'],
        ['file:///etc/passwd', 'scheme_not_allowed'],
      ]
      for (const [target, reason] of targets) {
        const attempts = connectAttempts.length
        await fetchRefused(hop(target), viaName(), reason, /\(redirect from pdf\.test\)$/)
        assert.deepEqual(connectAttempts.slice(attempts), ['pdf.test'], target)
      }
    })

    it('refuses a redirect from https to http unless allowHttp, and follows it when allowed', async () => {
      const downgrade = to(`${servers.http}/pdf`)
      await fetchRefused(downgrade, local(), 'scheme_not_allowed', /redirect from 127\.0\.0\.1/)
      const response = await safeFetch(downgrade, { ...local(), allowHttp: true })
      assert.equal(response.finalUrl, `${servers.http}/pdf`)
    })
  })

  it('turns a POST into a GET without body on 303, and keeps it on 307', async () => {
    const post = {
      ...local(),
      method: 'POST' as const,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    }
    const seeOther = JSON.parse((await safeFetch(to('/echo', 303), post)).body.toString())
    assert.deepEqual(
      [seeOther.method, seeOther.body, seeOther.headers['content-type']],
      ['GET', '', undefined],
    )
    const temporary = JSON.parse((await safeFetch(to('/echo', 307), post)).body.toString())
    assert.deepEqual([temporary.method, temporary.body], ['POST', '{}'])
  })
})

describe('limits, timeouts and TLS', () => {
  it('sends method, headers and body (webhook deliveries)', async () => {
    const headers = { 'content-type': 'application/json', 'x-paraph-signature': 't=1,v1=abc' }
    const post = { ...local(), method: 'POST' as const, headers, body: '{"ok":true}' }
    const response = await safeFetch(at('/echo'), post)
    const echoed = JSON.parse(response.body.toString())
    assert.equal(echoed.method, 'POST')
    assert.equal(echoed.headers['x-paraph-signature'], 't=1,v1=abc')
    assert.equal(echoed.body, '{"ok":true}')
  })

  it('too_large as soon as Content-Length exceeds maxBytes, without waiting for the body', async () => {
    // The server announces 100 MB and stalls: only an early refusal ends before the deadline.
    const options = { ...local(), maxBytes: 100_000, totalTimeoutMs: 4_000 }
    const message = /^the response from 127\.0\.0\.1 exceeds 100000 bytes$/
    await fetchRefused(at('/declared-big'), options, 'too_large', message)
  })

  it('too_large when a body without Content-Length streams past maxBytes; exactly maxBytes passes', async () => {
    await fetchRefused(at('/big'), { ...local(), maxBytes: 100_000 }, 'too_large')
    const exact = await safeFetch(at('/pdf'), { ...local(), maxBytes: PDF_BYTES.length })
    assert.equal(exact.body.length, PDF_BYTES.length)
  })

  it('timeout at the total deadline while a server trickles a byte every 200 ms', async () => {
    const started = performance.now()
    await fetchRefused(at('/trickle'), { ...local(), totalTimeoutMs: 600 }, 'timeout', /within 600 ms$/)
    // The trickle lasts 10 s; a per-chunk timeout would never fire.
    assert.ok(performance.now() - started < 3_000)
  })

  it('timeout when the TLS handshake never completes within connectTimeoutMs', async () => {
    const silent = await startSilentServer()
    try {
      const options = { ...local(), connectTimeoutMs: 300, totalTimeoutMs: 8_000 }
      const message = /^could not connect to 127\.0\.0\.1 within 300 ms$/
      await fetchRefused(`https://127.0.0.1:${silent.port}/`, options, 'timeout', message)
    } finally {
      await silent.close()
    }
  })

  it('ignores HTTP(S)_PROXY: a proxy would see the URL, and could reach what the guard refuses', async () => {
    const saved = [process.env.HTTPS_PROXY, process.env.HTTP_PROXY]
    // A closed port: a request sent through this proxy would fail.
    process.env.HTTPS_PROXY = process.env.HTTP_PROXY = 'http://127.0.0.1:9'
    try {
      assert.equal((await safeFetch(at('/pdf'), local())).status, 200)
    } finally {
      for (const [name, value] of [
        ['HTTPS_PROXY', saved[0]],
        ['HTTP_PROXY', saved[1]],
      ] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })

  it('tls_failed when the certificate is not trusted', async () => {
    await fetchRefused(at('/pdf'), { ...local(), ca: undefined }, 'tls_failed')
  })

  it('network_error when the body ends before its Content-Length', async () => {
    await fetchRefused(at('/short'), local(), 'network_error')
  })
})

describe('safeDownload', () => {
  it('writes the exact bytes and reports their count', async () => {
    const file = join(dir, 'exact.pdf')
    const response = await safeDownload(at('/pdf'), file, local())
    assert.equal(response.status, 200)
    assert.equal(response.bytes, PDF_BYTES.length)
    assert.equal(response.headers['content-type'], 'application/pdf')
    assert.ok((await readFile(file)).equals(PDF_BYTES))
  })

  it('removes the partial file when the body exceeds maxBytes', async () => {
    const file = join(dir, 'big.bin')
    await refused(safeDownload(at('/big'), file, { ...local(), maxBytes: 100_000 }), 'too_large')
    assert.equal(existsSync(file), false)
  })

  it('removes the partial file when the connection breaks off or the deadline passes', async () => {
    const short = join(dir, 'short.bin')
    await refused(safeDownload(at('/short'), short, local()), 'network_error')
    assert.equal(existsSync(short), false)
    const slow = join(dir, 'slow.bin')
    await refused(safeDownload(at('/trickle'), slow, { ...local(), totalTimeoutMs: 500 }), 'timeout')
    assert.equal(existsSync(slow), false)
  })

  it('creates no file for a refused URL', async () => {
    const file = join(dir, 'refused.pdf')
    await refused(safeDownload('https://169.254.169.254/latest/', file, strict), 'address_not_allowed')
    assert.equal(existsSync(file), false)
  })
})
