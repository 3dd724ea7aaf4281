import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Type } from 'typebox'
import { bodyAjv, jsonPath, validationError } from './validation.ts'

const Body = Type.Object(
  {
    submitters: Type.Array(
      Type.Object(
        { email: Type.String({ maxLength: 5 }), role: Type.String() },
        { additionalProperties: false },
      ),
    ),
    n: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
)

function firstError(body: unknown) {
  const validate = bodyAjv.compile(Body)
  assert.equal(validate(body), false)
  return validationError(validate.errors ?? [], 'body')
}

describe('validationError', () => {
  it('names the first violation by its path', () => {
    const error = firstError({
      submitters: [
        { email: 'a', role: 'x' },
        { email: 'a', role: 'x' },
        { email: 'toolong', role: 'x' },
      ],
    })
    assert.equal(error.code, 'invalid_request')
    assert.equal(error.status, 422)
    assert.equal(error.message, 'submitters[2].email: must be at most 5 characters.')
  })

  it('names a missing and an unknown field', () => {
    assert.equal(firstError({ submitters: [{ email: 'a' }] }).message, 'submitters[0].role: is required.')
    assert.equal(
      firstError({ submitters: [{ email: 'a', role: 'r', status: 'completed' }] }).message,
      'submitters[0].status: is not an accepted field.',
    )
    assert.equal(
      firstError({ submitters: [], __proto__x: 1 }).message,
      '__proto__x: is not an accepted field.',
    )
  })

  it('does not coerce JSON body types', () => {
    assert.equal(firstError({ submitters: [], n: '12' }).message, 'n: must be an integer.')
  })

  it('maps params to invalid_id and query fields to the route code', () => {
    assert.equal(
      validationError([{ instancePath: '/id', keyword: 'pattern', params: {}, schemaPath: '' }], 'params')
        .code,
      'invalid_id',
    )
    const error = validationError(
      [
        {
          instancePath: '/limit',
          keyword: 'maximum',
          params: { limit: 100 },
          schemaPath: '',
          message: 'must be <= 100',
        },
      ],
      'querystring',
      { limit: 'invalid_pagination' },
    )
    assert.equal(error.code, 'invalid_pagination')
    assert.equal(error.message, 'limit: must be <= 100.')
  })

  it('renders JSON pointers as dotted paths', () => {
    assert.equal(jsonPath(''), '')
    assert.equal(jsonPath('/a/0/b'), 'a[0].b')
    assert.equal(jsonPath('/metadata/a~1b'), 'metadata.a/b')
    assert.equal(jsonPath('/0', 'x'), '[0].x')
  })
})
