import assert from 'node:assert/strict'
import { resolve } from 'node:path'
import { describe, it } from 'node:test'
import { ConfigError, readConfig, readMcpClientConfig } from './config.ts'

function failsOn(env: Record<string, string>, variable: string) {
  assert.throws(
    () => readConfig(env),
    (error: unknown) =>
      error instanceof ConfigError && error.variable === variable && error.message.includes(variable),
  )
}

describe('readConfig', () => {
  it('gives the embedded defaults (docs/operations.md#configuration) on an empty environment', () => {
    const config = readConfig({})
    assert.equal(config.port, 8080)
    assert.equal(config.host, '127.0.0.1')
    assert.equal(config.publicUrl, 'http://127.0.0.1:8080')
    assert.equal(config.signingUrl, 'http://127.0.0.1:8080')
    assert.deepEqual(config.database, { engine: 'sqlite', path: resolve('./data/paraph.db') })
    assert.equal(config.storageUrl, `file:${resolve('./data')}/blobs`)
    assert.equal(config.mailFrom, 'Paraph <no-reply@localhost>')
    assert.equal(config.chromiumPath, '/usr/bin/chromium')
    assert.equal(config.allowPrivateNetworkUrls, false)
    assert.deepEqual(config.webhookRetrySchedule, [0, 30, 300, 1800, 7200, 21600, 86400, 259200])
    assert.deepEqual(config.rateLimit, { test: 100, live: 1000 })
    assert.equal(config.smtpUrl, undefined)
    assert.equal(config.redisUrl, undefined)
    assert.ok(Object.isFrozen(config))
  })

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://api.example.eu/',
      SIGNING_URL: 'https://sign.example.eu',
      DATABASE_URL: 'postgres://u@db:5432/paraph',
      STORAGE_URL: 's3://bucket?endpoint=http://127.0.0.1:9000&region=eu-west-1&force_path_style=true',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Acme Contracts <contracts@acme.example>',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PARAPH_SECRET: 'x'.repeat(40),
      ALLOW_PRIVATE_NETWORK_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0,1,2',
      RATE_LIMIT_TEST: '5',
      RATE_LIMIT_LIVE: '50',
    })
    assert.equal(config.port, 9000)
    assert.equal(config.publicUrl, 'https://api.example.eu')
    assert.equal(config.signingUrl, 'https://sign.example.eu')
    assert.deepEqual(config.database, { engine: 'postgres', url: 'postgres://u@db:5432/paraph' })
    assert.equal(config.smtpUrl, 'smtp://127.0.0.1:2525')
    assert.equal(config.mailFrom, 'Acme Contracts <contracts@acme.example>')
    assert.equal(config.allowPrivateNetworkUrls, true)
    assert.deepEqual(config.webhookRetrySchedule, [0, 1, 2])
    assert.deepEqual(config.rateLimit, { test: 5, live: 50 })
  })

  it('stops on a bad value with one line naming the variable', () => {
    failsOn({ PORT: 'eighty' }, 'PORT')
    failsOn({ PORT: '70000' }, 'PORT')
    failsOn({ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL')
    failsOn({ SIGNING_URL: 'ftp://x' }, 'SIGNING_URL')
    failsOn({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL')
    failsOn({ STORAGE_URL: 'gs://bucket' }, 'STORAGE_URL')
    failsOn({ SMTP_URL: 'http://mail' }, 'SMTP_URL')
    failsOn({ REDIS_URL: 'localhost:6379' }, 'REDIS_URL')
    failsOn({ MAIL_FROM: 'Acme' }, 'MAIL_FROM')
    failsOn({ MAIL_FROM: 'Acme <acme.example>' }, 'MAIL_FROM')
    failsOn({ MAIL_FROM: 'a@b <c@d> x' }, 'MAIL_FROM')
    failsOn({ PARAPH_SECRET: 'short' }, 'PARAPH_SECRET')
    failsOn({ ALLOW_PRIVATE_NETWORK_URLS: 'yes please' }, 'ALLOW_PRIVATE_NETWORK_URLS')
    failsOn({ WEBHOOK_RETRY_SCHEDULE: '0,30,x' }, 'WEBHOOK_RETRY_SCHEDULE')
    failsOn({ WEBHOOK_RETRY_SCHEDULE: '30,0' }, 'WEBHOOK_RETRY_SCHEDULE')
    failsOn({ RATE_LIMIT_TEST: '0' }, 'RATE_LIMIT_TEST')
    failsOn({ RATE_LIMIT_LIVE: '-1' }, 'RATE_LIMIT_LIVE')
    failsOn({ RATE_LIMIT_TEST: '1000000001' }, 'RATE_LIMIT_TEST')
    failsOn({ SIGNING_CERT_PASSWORD: 'pw' }, 'SIGNING_CERT_PASSWORD')
    for (const env of [{ PORT: 'x' }, { DATABASE_URL: 'mysql://x' }]) {
      try {
        readConfig(env)
      } catch (error) {
        assert.equal((error as Error).message.split('\n').length, 1)
      }
    }
  })

  it('MAIL_LANGUAGE: English by default, French on request, anything else stops with one line (issue #20)', () => {
    assert.equal(readConfig({}).mailLanguage, 'en')
    assert.equal(readConfig({ MAIL_LANGUAGE: 'fr' }).mailLanguage, 'fr')
    assert.equal(readConfig({ MAIL_LANGUAGE: ' FR ' }).mailLanguage, 'fr')
    failsOn({ MAIL_LANGUAGE: 'klingon' }, 'MAIL_LANGUAGE')
    failsOn({ MAIL_LANGUAGE: 'fr-FR' }, 'MAIL_LANGUAGE')
  })

  it('CHROMIUM_SANDBOX: auto by default, on or off on request, anything else stops with one line', () => {
    assert.equal(readConfig({}).chromiumSandbox, 'auto')
    assert.equal(readConfig({ CHROMIUM_SANDBOX: 'on' }).chromiumSandbox, 'on')
    assert.equal(readConfig({ CHROMIUM_SANDBOX: 'OFF' }).chromiumSandbox, 'off')
    failsOn({ CHROMIUM_SANDBOX: 'true' }, 'CHROMIUM_SANDBOX')
    failsOn({ CHROMIUM_SANDBOX: 'yes please' }, 'CHROMIUM_SANDBOX')
  })

  it('RATE_LIMIT_MCP (docs/mcp.md#rate-limits): 120 by default, a positive integer', () => {
    assert.equal(readConfig({}).rateLimitMcp, 120)
    assert.equal(readConfig({ RATE_LIMIT_MCP: '7' }).rateLimitMcp, 7)
    failsOn({ RATE_LIMIT_MCP: '0' }, 'RATE_LIMIT_MCP')
    failsOn({ RATE_LIMIT_MCP: 'many' }, 'RATE_LIMIT_MCP')
  })

  it('paraph mcp: PARAPH_URL, else PUBLIC_URL, else 127.0.0.1:$PORT; PARAPH_API_KEY required', () => {
    const key = 'sk_test_0123456789abcdefABCDEF0123456789'
    assert.equal(readMcpClientConfig({ PARAPH_API_KEY: key }).url, 'http://127.0.0.1:8080')
    assert.equal(readMcpClientConfig({ PARAPH_API_KEY: key, PORT: '9000' }).url, 'http://127.0.0.1:9000')
    const publicUrl = { PARAPH_API_KEY: key, PUBLIC_URL: 'https://sign.example.eu/' }
    assert.equal(readMcpClientConfig(publicUrl).url, 'https://sign.example.eu')
    const both = { ...publicUrl, PARAPH_URL: 'http://10.0.0.5:8080' }
    assert.deepEqual(readMcpClientConfig(both), { url: 'http://10.0.0.5:8080', apiKey: key })
    assert.throws(() => readMcpClientConfig({}), /PARAPH_API_KEY is required/)
    assert.throws(() => readMcpClientConfig({ PARAPH_API_KEY: 'hunter2' }), /PARAPH_API_KEY must be/)
    assert.throws(() => readMcpClientConfig({ PARAPH_API_KEY: key, PARAPH_URL: 'ftp://x' }), /PARAPH_URL/)
  })

  it('RATE_LIMIT_SIGNER and TRUST_PROXY (issue #20): defaults, every accepted form', () => {
    const defaults = readConfig({})
    assert.equal(defaults.rateLimitSigner, 300)
    assert.equal(defaults.trustProxy, false)
    assert.equal(readConfig({ RATE_LIMIT_SIGNER: '20' }).rateLimitSigner, 20)
    assert.equal(readConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
    assert.equal(readConfig({ TRUST_PROXY: 'TRUE' }).trustProxy, true)
    assert.equal(readConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
    assert.deepEqual(readConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy, [
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ])
  })

  it('stops on a bad RATE_LIMIT_SIGNER or TRUST_PROXY with one line naming it and the bad part', () => {
    failsOn({ RATE_LIMIT_SIGNER: '0' }, 'RATE_LIMIT_SIGNER')
    failsOn({ RATE_LIMIT_SIGNER: 'many' }, 'RATE_LIMIT_SIGNER')
    for (const bad of [
      'yes',
      '0',
      '101',
      '10.0.0.0/33',
      '300.1.1.1',
      '10.0.0.1,,10.0.0.2',
      'proxy.example',
    ]) {
      failsOn({ TRUST_PROXY: bad }, 'TRUST_PROXY')
    }
    assert.throws(
      () => readConfig({ TRUST_PROXY: '10.0.0.1, nope' }),
      (error: Error) =>
        error.message.split('\n').length === 1 &&
        /^Invalid configuration: TRUST_PROXY must be false, true, a hop count .*: "nope" is not an IP address or CIDR$/.test(
          error.message,
        ),
    )
  })

  it('TSA_URL (issue #21 item 5): unset by default, an http(s) URL kept as given, anything else one line', () => {
    assert.equal(readConfig({}).tsaUrl, undefined)
    assert.equal(readConfig({ TSA_URL: 'http://tsa.example:318/tsr' }).tsaUrl, 'http://tsa.example:318/tsr')
    assert.equal(readConfig({ TSA_URL: ' https://freetsa.org/tsr ' }).tsaUrl, 'https://freetsa.org/tsr')
    for (const bad of ['tsa.example/tsr', 'ftp://tsa.example', 'file:///etc/passwd']) {
      failsOn({ TSA_URL: bad }, 'TSA_URL')
    }
    assert.throws(
      () => readConfig({ TSA_URL: 'ldap://tsa.example' }),
      (error: Error) =>
        error.message === 'Invalid configuration: TSA_URL must start with http: or https: (got "ldap:")',
    )
  })

  it('METRICS_LISTEN (issue #24 item 4): unset by default, HOST:PORT or [IPv6]:PORT, anything else one line', () => {
    assert.equal(readConfig({}).metricsListen, undefined)
    assert.deepEqual(readConfig({ METRICS_LISTEN: '127.0.0.1:9464' }).metricsListen, {
      host: '127.0.0.1',
      port: 9464,
    })
    assert.deepEqual(readConfig({ METRICS_LISTEN: ' 0.0.0.0:0 ' }).metricsListen, {
      host: '0.0.0.0',
      port: 0,
    })
    assert.deepEqual(readConfig({ METRICS_LISTEN: '[::1]:9464' }).metricsListen, { host: '::1', port: 9464 })
    assert.deepEqual(readConfig({ METRICS_LISTEN: 'paraph-api.internal:9464' }).metricsListen, {
      host: 'paraph-api.internal',
      port: 9464,
    })
    for (const bad of ['9464', ':9464', '127.0.0.1', '127.0.0.1:70000', '::1:9464', '[nope]:9464', 'a b:1']) {
      failsOn({ METRICS_LISTEN: bad }, 'METRICS_LISTEN')
    }
    assert.throws(
      () => readConfig({ METRICS_LISTEN: '9464' }),
      (error: Error) =>
        error.message ===
        'Invalid configuration: METRICS_LISTEN must be HOST:PORT, e.g. 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464 (got "9464")',
    )
  })

  it('REMINDERS and REMINDER_HOUR_SECONDS (issue #34): off and 3600 by default, FIRST,EVERY,MAX, anything else one line', () => {
    assert.equal(readConfig({}).reminders, null)
    assert.equal(readConfig({}).reminderHourSeconds, 3600)
    assert.equal(readConfig({ REMINDERS: 'OFF' }).reminders, null)
    assert.deepEqual(readConfig({ REMINDERS: '72, 48,3' }).reminders, {
      firstAfterHours: 72,
      everyHours: 48,
      maxCount: 3,
    })
    assert.deepEqual(readConfig({ REMINDERS: '720,720,10' }).reminders, {
      firstAfterHours: 720,
      everyHours: 720,
      maxCount: 10,
    })
    assert.equal(readConfig({ REMINDER_HOUR_SECONDS: '2' }).reminderHourSeconds, 2)
    for (const bad of [
      'on',
      '72,48',
      '72,48,3,1',
      '0,48,3',
      '72,721,3',
      '72,48,11',
      '72,48,0',
      '1.5,2,3',
      '72;48;3',
    ]) {
      failsOn({ REMINDERS: bad }, 'REMINDERS')
    }
    assert.throws(
      () => readConfig({ REMINDERS: '72,48' }),
      (error: Error) =>
        error.message ===
        'Invalid configuration: REMINDERS must be off, or FIRST,EVERY,MAX in hours (first and every 1 to 720, max 1 to 10), e.g. 72,48,3 (got "72,48")',
    )
    for (const bad of ['0', '-1', 'hour', '86401'])
      failsOn({ REMINDER_HOUR_SECONDS: bad }, 'REMINDER_HOUR_SECONDS')
  })

  it('WORKER_CONCURRENCY: 4 by default, 1 to 32, anything else one line naming it', () => {
    assert.equal(readConfig({}).workerConcurrency, 4)
    assert.equal(readConfig({ WORKER_CONCURRENCY: '1' }).workerConcurrency, 1)
    assert.equal(readConfig({ WORKER_CONCURRENCY: '32' }).workerConcurrency, 32)
    for (const bad of ['0', '33', '-2', 'many', '2.5'])
      failsOn({ WORKER_CONCURRENCY: bad }, 'WORKER_CONCURRENCY')
  })

  it('JOB_LEASE_SECONDS: 60 by default, 5 to 3600, anything else one line naming it', () => {
    assert.equal(readConfig({}).jobLeaseSeconds, 60)
    assert.equal(readConfig({ JOB_LEASE_SECONDS: '5' }).jobLeaseSeconds, 5)
    assert.equal(readConfig({ JOB_LEASE_SECONDS: ' 3600 ' }).jobLeaseSeconds, 3600)
    for (const bad of ['0', '4', '3601', '-5', '1.5', '60s', 'long'])
      failsOn({ JOB_LEASE_SECONDS: bad }, 'JOB_LEASE_SECONDS')
    assert.throws(
      () => readConfig({ JOB_LEASE_SECONDS: '4' }),
      (error: Error) =>
        error.message ===
        'Invalid configuration: JOB_LEASE_SECONDS must be an integer from 5 to 3600 (got "4")',
    )
  })
})
