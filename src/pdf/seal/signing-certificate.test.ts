import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomUUID, X509Certificate } from 'node:crypto'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type P12Fixture, p12Fixture } from '../../../test/fixtures/p12.ts'
import { SELF_SIGNED_FILE } from './self-signed-seal.ts'
import { loadSigningCertificate, type SealingIdentity } from './signing-certificate.ts'

const run = promisify(execFile)
let root: string
const freshDir = () => mkdtemp(join(root, 'data-'))
const sameCertificate = (a: SealingIdentity, b: SealingIdentity) =>
  assert.equal(Buffer.compare(a.certificate, b.certificate), 0)

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'paraph-signing-cert-'))
})
after(() => rm(root, { recursive: true, force: true }))

describe('without SIGNING_CERT_P12: a self-signed certificate generated once in the data directory', () => {
  it('creates paraph-seal.pem (0600): Paraph subject, RSA 3072, 10 years, digitalSignature + nonRepudiation', async () => {
    const dataDir = await freshDir()
    const now = new Date('2026-03-01T12:00:00Z')
    const identity = await loadSigningCertificate({ dataDir, now })
    const path = join(dataDir, SELF_SIGNED_FILE)
    assert.deepEqual(identity.source, { kind: 'self-signed', path, created: true })
    assert.equal((await stat(path)).mode & 0o777, 0o600)
    assert.equal(identity.commonName, 'Paraph electronic seal (self-signed)')
    assert.equal(identity.notAfter.toISOString(), '2036-03-01T12:00:00.000Z')
    assert.deepEqual(identity.chain, [])
    assert.equal(identity.privateKey.asymmetricKeyDetails?.modulusLength, 3072)
    const certificate = new X509Certificate(identity.certificate)
    assert.equal(certificate.subject, 'O=Paraph\nCN=Paraph electronic seal (self-signed)')
    assert.ok(certificate.verify(certificate.publicKey), 'self-signed')
    const text = await opensslText(identity.certificate)
    assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation/)
    assert.match(text, /Signature Algorithm: sha256WithRSAEncryption/)
    assert.match(text, /Not Before: Mar {2}1 11:00:00 2026 GMT/)

    const next = await loadSigningCertificate({ dataDir })
    sameCertificate(next, identity)
    assert.deepEqual(next.source, { kind: 'self-signed', path, created: false })
  })

  it('two processes starting together end up with one certificate, created once, no temporary file left', async () => {
    const dataDir = await freshDir()
    const module = new URL('./signing-certificate.ts', import.meta.url).href
    const script = `
      const { loadSigningCertificate } = await import(${JSON.stringify(module)})
      const { certificate, source } = await loadSigningCertificate({ dataDir: ${JSON.stringify(dataDir)} })
      process.stdout.write(JSON.stringify({ certificate: Buffer.from(certificate).toString('base64'), created: source.created }))
    `
    const cwd = fileURLToPath(new URL('../../..', import.meta.url))
    const start = async () => {
      const args = ['--import', 'tsx', '--input-type=module', '--eval', script]
      const { stdout } = await run(process.execPath, args, { cwd, encoding: 'utf8' })
      return JSON.parse(stdout) as { certificate: string; created: boolean }
    }
    const [a, b] = await Promise.all([start(), start()])
    assert.equal(a.certificate, b.certificate)
    assert.deepEqual([a.created, b.created].sort(), [false, true])
    assert.deepEqual(await readdir(dataDir), [SELF_SIGNED_FILE])
    const stored = await loadSigningCertificate({ dataDir })
    assert.equal(Buffer.from(stored.certificate).toString('base64'), a.certificate)
  })

  it('a damaged stored file is an error naming the file and the way out', async () => {
    const dataDir = await freshDir()
    await writeFile(join(dataDir, SELF_SIGNED_FILE), 'not a PEM\n', { mode: 0o600 })
    await assert.rejects(loadSigningCertificate({ dataDir }), (error: Error) => {
      assert.match(error.message, new RegExp(`${SELF_SIGNED_FILE}.*remove it.*SIGNING_CERT_P12.*unreadable`))
      return true
    })
  })
})

describe('SIGNING_CERT_P12: a PKCS#12 by path or as base64', () => {
  let withChain: P12Fixture
  before(async () => {
    withChain = await p12Fixture(root, 'chain', { password: 'correct horse', withCa: true })
  })

  it('by path: the key, its certificate, the CA certificate as chain, the common name', async () => {
    const identity = await loadSigningCertificate({
      dataDir: root,
      p12: withChain.path,
      password: 'correct horse',
    })
    assert.deepEqual(identity.source, { kind: 'p12' })
    assert.deepEqual(Buffer.from(identity.certificate), withChain.certificate)
    assert.deepEqual(
      identity.chain.map((der) => Buffer.from(der)),
      [withChain.ca],
    )
    assert.equal(identity.commonName, 'Acme seal chain')
    assert.ok(new X509Certificate(identity.certificate).checkPrivateKey(identity.privateKey))
  })

  it('as base64, wrapped on several lines: the same identity', async () => {
    const wrapped = withChain.base64.replace(/.{76}/g, '$&\n')
    const identity = await loadSigningCertificate({ dataDir: root, p12: wrapped, password: 'correct horse' })
    assert.deepEqual(Buffer.from(identity.certificate), withChain.certificate)
  })

  it('a legacy PKCS#12 (3DES key, RC2-40 certificates, SHA-1 MAC) opens too', async () => {
    const legacy = await p12Fixture(root, 'legacy', { password: 'pw', legacy: true })
    const identity = await loadSigningCertificate({ dataDir: root, p12: legacy.path, password: 'pw' })
    assert.deepEqual(Buffer.from(identity.certificate), legacy.certificate)
  })

  it('a PKCS#12 without password opens with no SIGNING_CERT_PASSWORD', async () => {
    const open = await p12Fixture(root, 'open', { key: 'ec' })
    const identity = await loadSigningCertificate({ dataDir: root, p12: open.base64 })
    assert.equal(identity.privateKey.asymmetricKeyDetails?.namedCurve, 'prime256v1')
  })
})

describe('SIGNING_CERT_P12 errors name the variable and what is wrong', () => {
  const rejects = (options: { p12: string; password?: string }, pattern: RegExp) =>
    assert.rejects(loadSigningCertificate({ dataDir: root, ...options }), (error: Error) => {
      assert.match(error.message, pattern)
      assert.doesNotMatch(error.message, /correct horse|wrong horse/, 'never the password')
      return true
    })

  it('a wrong password', async () => {
    const fixture = await p12Fixture(root, 'wrong', { password: 'correct horse' })
    await rejects(
      { p12: fixture.path, password: 'wrong horse' },
      /^SIGNING_CERT_PASSWORD does not open SIGNING_CERT_P12/,
    )
    await rejects(
      { p12: fixture.base64 },
      /^SIGNING_CERT_PASSWORD does not open SIGNING_CERT_P12, read as base64/,
    )
  })

  it('neither a file nor base64', () =>
    rejects(
      { p12: '/etc/paraph/seal' },
      /^SIGNING_CERT_P12 is not a PKCS#12 file, read as base64, no file at \/etc/,
    ))

  it('a path with characters base64 does not have', () =>
    rejects(
      { p12: './seal.p12' },
      /^SIGNING_CERT_P12 must be the path of a PKCS#12 file or its base64: no file at/,
    ))

  it('a file that is not PKCS#12', async () => {
    const path = join(root, 'cert.pem')
    await writeFile(path, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
    await rejects({ p12: path }, /^SIGNING_CERT_P12 is not a PKCS#12 file, the file .*cert\.pem/)
  })

  it('a directory', () => rejects({ p12: root }, /^SIGNING_CERT_P12: cannot read the file .* \(EISDIR\)/))

  it('no private key in the file', async () => {
    const fixture = await p12Fixture(root, 'no-key', { noKey: true })
    await rejects({ p12: fixture.path }, /^SIGNING_CERT_P12 holds no private key$/)
  })

  it('an RSA key under 2048 bits', async () => {
    const fixture = await p12Fixture(root, 'weak', { key: 'rsa:1024' })
    await rejects(
      { p12: fixture.path },
      /^SIGNING_CERT_P12 holds a rsa key of 1024 bits: a seal needs RSA of 2048 bits/,
    )
  })
})

async function opensslText(der: Uint8Array): Promise<string> {
  const path = join(root, `${randomUUID()}.der`)
  await writeFile(path, der)
  const { stdout } = await run('openssl', ['x509', '-inform', 'DER', '-in', path, '-noout', '-text'], {
    encoding: 'utf8',
  })
  return stdout
}
