import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { decodeBase64Pdf } from './intake.ts'

describe('decodeBase64Pdf', () => {
  const pdf = Buffer.from('%PDF-1.7 some bytes \u00ff\u0000')
  it('decodes plain base64, a data URL and line-wrapped base64', () => {
    const b64 = pdf.toString('base64')
    assert.ok(decodeBase64Pdf(b64, 'f').equals(pdf))
    assert.ok(decodeBase64Pdf(`data:application/pdf;base64,${b64}`, 'f').equals(pdf))
    assert.ok(decodeBase64Pdf(b64.replace(/(.{8})/g, '$1\n'), 'f').equals(pdf))
  })

  it('refuses anything that is not strict base64', () => {
    for (const bad of [
      'abc',
      'ab!d',
      'abcd=efg',
      'QQ==QQ==',
      'A===',
      '====',
      'QUJD\u0000QUJD',
      'QU JD'.padEnd(8, 'A'),
      '****',
      'YWJj\u00e9'.padEnd(8, 'A'),
      `${pdf.toString('base64')}A`,
    ]) {
      assert.throws(
        () => decodeBase64Pdf(bad, 'documents[0].pdf_base64'),
        (e: unknown) =>
          e instanceof ApiError && e.code === 'invalid_pdf' && /not valid base64/.test(e.message),
        JSON.stringify(bad),
      )
    }
  })

  it('says so when the string is empty, data URL prefix or whitespace aside', () => {
    for (const empty of ['', 'data:application/pdf;base64,', ' \n ']) {
      assert.throws(
        () => decodeBase64Pdf(empty, 'documents[0].file'),
        (e: unknown) =>
          e instanceof ApiError &&
          e.code === 'invalid_pdf' &&
          /documents\[0\]\.file: is empty/.test(e.message),
        JSON.stringify(empty),
      )
    }
  })
})
