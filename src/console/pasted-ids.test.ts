import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { submissionIdsIn } from './app/pasted-ids.ts'

describe('submission ids as pasted for a legal hold', () => {
  it('reads one per line, comma-, semicolon- or space-separated, CRLF and blank lines included', () => {
    assert.deepEqual(submissionIdsIn('sub_a\r\nsub_b,sub_c; sub_d\tsub_e\n\n  sub_f  '), [
      'sub_a',
      'sub_b',
      'sub_c',
      'sub_d',
      'sub_e',
      'sub_f',
    ])
  })

  it('keeps the first of repeats and finds nothing in blank text', () => {
    assert.deepEqual(submissionIdsIn('sub_b\nsub_a, sub_b'), ['sub_b', 'sub_a'])
    assert.deepEqual(submissionIdsIn(' \n, ;'), [])
  })
})
