import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../errors.ts'
import { RenderError } from '../render/render-error.ts'
import { apiErrorOf, rendering } from './render-errors.ts'

describe('render errors as API errors', () => {
  const cases = [
    ['refused_html', 'invalid_request', 422],
    ['bad_tag', 'invalid_template_tag', 422],
    ['refused_docx', 'invalid_docx', 422],
    ['docx_failed', 'docx_convert_failed', 500],
    ['render_failed', 'html_render_failed', 500],
  ] as const
  for (const [reason, code, status] of cases) {
    it(`${reason} is ${status} ${code}, the message unchanged, no header`, () => {
      const error = apiErrorOf(new RenderError(reason, 'file: the message'))
      assert.ok(error instanceof ApiError)
      assert.deepEqual(
        [error.code, error.status, error.message, error.headers],
        [code, status, 'file: the message', {}],
      )
    })
  }

  it('busy is 500 html_render_failed with its Retry-After', () => {
    const error = apiErrorOf(new RenderError('busy', 'The HTML renderer is busy.', 5))
    assert.ok(error instanceof ApiError)
    assert.deepEqual(
      [error.status, error.code, error.type, error.headers],
      [500, 'html_render_failed', 'api_error', { 'Retry-After': '5' }],
    )
  })

  it("account_limit is 429 rate_limit_exceeded (rate_limit_error) with its Retry-After: the account's own limit, not our fault", () => {
    const message = 'Too many concurrent HTML renders for this account (2 running, 4 waiting): …'
    const error = apiErrorOf(new RenderError('account_limit', message, 5))
    assert.ok(error instanceof ApiError)
    assert.deepEqual(
      [error.status, error.code, error.type, error.message, error.headers],
      [429, 'rate_limit_exceeded', 'rate_limit_error', message, { 'Retry-After': '5' }],
    )
  })

  it('leaves any other error as it is', async () => {
    const other = new Error('disk full')
    assert.equal(apiErrorOf(other), other)
    await assert.rejects(rendering(Promise.reject(other)), (error) => error === other)
    await assert.rejects(rendering(Promise.reject(new RenderError('bad_tag', 'x'))), ApiError)
    assert.equal(await rendering(Promise.resolve(3)), 3)
  })
})
