import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isDatabaseUnavailable } from './dialect.ts'

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

  it('is true for the database away: refused, reset, terminated, starting up, a connection exception', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('SQLITE_BUSY'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ])
      assert.equal(isDatabaseUnavailable(error), true, String(error))
  })

  it('is false for our own mistakes and for bad data', () => {
    for (const error of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "nope" does not exist'),
      new TypeError('x is undefined'),
      'a string',
      null,
    ])
      assert.equal(isDatabaseUnavailable(error), false, String(error))
  })
})
