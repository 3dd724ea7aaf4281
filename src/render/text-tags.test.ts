// One tag's text → its field spec: the defaults and extensions of docs/api.md#syntax,
// and a reason for everything refused.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DEFAULT_TAG_SIZES, parseTag, TagProblem } from './text-tags.ts'

const refused = (inner: string, reason: RegExp) =>
  assert.throws(
    () => parseTag(inner),
    (error: unknown) => error instanceof TagProblem && reason.test(error.message),
  )

describe('parseTag', () => {
  it('a bare name is a required, writable signature of the first role, at the default size', () => {
    assert.deepEqual(parseTag('Signature'), {
      name: 'Signature',
      role: null,
      type: 'signature',
      required: true,
      readonly: false,
      options: null,
      width: 160,
      height: 48,
    })
  })

  it('reads every attribute, trimming spaces and non-breaking spaces', () => {
    assert.deepEqual(parseTag(' Buyer name ; role = Buyer;type=text ;required=false;readonly=true\u00a0'), {
      name: 'Buyer name',
      role: 'Buyer',
      type: 'text',
      required: false,
      readonly: true,
      options: null,
      ...DEFAULT_TAG_SIZES.text,
    })
    assert.deepEqual(parseTag('Plan;type=radio;options=Basic | Pro|Team;width=200;height=30.5'), {
      name: 'Plan',
      role: null,
      type: 'radio',
      required: true,
      readonly: false,
      options: ['Basic', 'Pro', 'Team'],
      width: 200,
      height: 30.5,
    })
  })

  it('sizes each type by default', () => {
    for (const [type, size] of Object.entries(DEFAULT_TAG_SIZES)) {
      const extra = type === 'radio' || type === 'select' ? ';options=A|B' : ''
      const spec = parseTag(`F;type=${type}${extra}`)
      assert.deepEqual({ width: spec.width, height: spec.height }, size, type)
    }
  })

  it('refuses what is malformed, naming why', () => {
    refused('', /no field name/)
    refused(' ;role=A', /no field name/)
    refused('role=A', /a field name comes first/)
    refused('A;role=B;', /empty attribute/)
    refused('A;;role=B', /empty attribute/)
    refused('A;role', /"role" is not attribute=value/)
    refused('A;colour=red', /unknown attribute "colour"/)
    refused('A;Role=B', /unknown attribute "Role"/)
    refused('A;role=B;role=C', /role appears twice/)
    refused('A;role=', /role has no value/)
    refused('A;type=stamp', /unsupported type "stamp"/)
    refused('A;required=yes', /required must be true or false/)
    refused('A;readonly=1', /readonly must be true or false/)
    refused('A;type=select', /needs options/)
    refused('A;type=text;options=X|Y', /options= is for radio and select/)
    refused('A;type=radio;options=X||Y', /empty choice/)
    refused('A;type=radio;options=X|X', /repeats a choice/)
    refused('A;width=0', /width must be a number of points/)
    refused('A;height=1e3', /height must be a number of points/)
    refused('A;width=1001', /width must be/)
    refused(`${'n'.repeat(101)}`, /longer than 100/)
    refused('A{b', /brace/)
  })
})
