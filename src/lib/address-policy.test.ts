// The address rule of the SSRF guard, pure: which IP addresses a request to a user-supplied URL may
// reach. safe-fetch.test.ts checks that the guard applies it, to every URL and every DNS answer.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isAllowedAddress, liftedByPrivateNetwork, urlRefusal } from './address-policy.ts'

describe('isAllowedAddress', () => {
  it('allows public unicast addresses, IPv4 and IPv6', () => {
    const allowed = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4007::64']
    for (const address of allowed) assert.equal(isAllowedAddress(address, false), true, address)
  })

  it('refuses loopback, private, link-local, CGNAT, unique-local, special ranges and the Azure wire server', () => {
    const refused = {
      loopback: ['127.0.0.1', '127.255.0.1', '::1', '::ffff:127.0.0.1'],
      private: ['10.0.0.5', '172.16.0.1', '192.168.1.1', '::ffff:10.0.0.5'],
      metadata: ['169.254.169.254', '::ffff:a9fe:a9fe', 'fe80::1', 'fd00:ec2::254', '168.63.129.16'],
      special: ['100.64.0.1', '0.0.0.0', '::', '224.0.0.1', '255.255.255.255', '192.0.2.1', 'ff02::1'],
      tunnels: ['2002:7f00:1::', '2001::1', '64:ff9b::a9fe:a9fe'],
      'not an IP Node would connect to': ['127.1', '0x7f000001', 'pdf.example.com', ''],
    }
    for (const [kind, addresses] of Object.entries(refused)) {
      for (const one of addresses) assert.equal(isAllowedAddress(one, false), false, `${one}: ${kind}`)
    }
  })

  it('allows every address with allowPrivateNetwork', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.5', '169.254.169.254', '168.63.129.16']) {
      assert.equal(isAllowedAddress(address, true), true, address)
    }
  })
})

describe('liftedByPrivateNetwork', () => {
  const strict = { allowPrivateNetwork: false, allowHttp: false }
  const refusal = (url: string) => urlRefusal(new URL(url), strict)!

  it('http:, a local name and a refused address are what ALLOW_PRIVATE_NETWORK_URLS lifts', () => {
    for (const url of [
      'http://hooks.example.eu/',
      'https://localhost/',
      'https://10.0.0.5/',
      'https://[::1]/',
    ]) {
      assert.equal(liftedByPrivateNetwork(refusal(url)), true, url)
    }
    assert.equal(
      liftedByPrivateNetwork({ reason: 'address_not_allowed', message: 'a.example resolves to 127.0.0.1' }),
      true,
    )
  })

  it('other schemes, credentials and failures it does not lift are not', () => {
    for (const url of ['ftp://hooks.example.eu/', 'file:///etc/passwd', 'https://u:p@hooks.example.eu/']) {
      assert.equal(liftedByPrivateNetwork(refusal(url)), false, url)
    }
    assert.equal(liftedByPrivateNetwork({ reason: 'dns_failed', message: 'x could not be resolved' }), false)
  })
})
