import assert from 'node:assert/strict'
import { hostname } from 'node:os'
import { describe, it } from 'node:test'
import { pino } from 'pino'
import { AccessLog, jsonString } from './access-log.ts'

class Lines {
  lines: string[] = []
  write(line: string): void {
    this.lines.push(line)
  }
}

const entry = {
  requestId: 'req_AAAAAAAAAA00000000000001',
  method: 'GET',
  route: '/v1/health',
  status: 200,
  ms: 0.05,
  keyId: 'key_Mc987vmPrHD651hFiwkAQ2Wm',
  accountId: 'acct_uiiXKxjER5xWE7ukx2F8bLyS',
}

describe('access log', () => {
  it('writes the line pino would write for the same fields, key for key', () => {
    const ours = new Lines()
    new AccessLog(ours, 30, () => 1_795_433_991_136).write(entry)
    const theirs = new Lines()
    pino({ timestamp: () => ',"time":1795433991136' }, theirs).info(
      {
        request_id: entry.requestId,
        method: entry.method,
        route: entry.route,
        status: entry.status,
        ms: entry.ms,
        key_id: entry.keyId,
        account_id: entry.accountId,
      },
      'request',
    )
    assert.equal(ours.lines.length, 1)
    assert.equal(ours.lines[0], theirs.lines[0])
    assert.ok(ours.lines[0]?.endsWith('}\n'))
    const parsed = JSON.parse(ours.lines[0] ?? '')
    assert.equal(parsed.hostname, hostname())
    assert.equal(parsed.pid, process.pid)
  })

  it('writes null for an unmatched route and leaves out the key of an unauthenticated request', () => {
    const out = new Lines()
    new AccessLog(out, 30).write({
      ...entry,
      route: null,
      status: 404,
      keyId: undefined,
      accountId: undefined,
    })
    const parsed = JSON.parse(out.lines[0] ?? '')
    assert.equal(parsed.route, null)
    assert.equal(parsed.status, 404)
    assert.ok(!('key_id' in parsed) && !('account_id' in parsed))
    assert.equal(parsed.msg, 'request')
  })

  it('escapes what it did not produce itself', () => {
    const out = new Lines()
    new AccessLog(out, 30).write({ ...entry, route: '/v1/"odd"\\route\n', method: 'M"' })
    const parsed = JSON.parse(out.lines[0] ?? '')
    assert.equal(parsed.route, '/v1/"odd"\\route\n')
    assert.equal(parsed.method, 'M"')
    assert.equal(out.lines[0]?.split('\n').length, 2, 'one line, whatever the fields hold')
  })

  it('writes nothing when the level is above info', () => {
    for (const level of ['warn', 'error', 'fatal', 'silent'] as const) {
      const out = new Lines()
      new AccessLog(out, pino({ level }, new Lines()).levelVal).write(entry)
      assert.deepEqual(out.lines, [], level)
    }
    const out = new Lines()
    new AccessLog(out, pino({ level: 'debug' }, new Lines()).levelVal).write(entry)
    assert.equal(out.lines.length, 1)
  })

  it('quotes plain strings as they are and escapes every other one as JSON.stringify does', () => {
    const samples = [
      '',
      'req_AAA',
      '/v1/submissions/:id',
      'a"b',
      'a\\b',
      'tab\there',
      'é',
      '\u2028',
      '\u007f',
      '~ !',
    ]
    for (const sample of samples) assert.equal(jsonString(sample), JSON.stringify(sample), sample)
    for (let code = 0; code < 256; code++) {
      const sample = `x${String.fromCharCode(code)}y`
      assert.equal(jsonString(sample), JSON.stringify(sample), `char ${code}`)
    }
  })
})
