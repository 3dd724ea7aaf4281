// Schemas shared by many routes. Each is a value and a type of the same name (style.md).
import { type Static, type TSchema, Type } from 'typebox'
import { type IdPrefix, idPattern } from '../lib/ids.ts'

/** A string enum rendered as `{ type: string, enum: [...] }` (clearer in OpenAPI and errors than anyOf). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

const ID_NAMES: Record<IdPrefix, string> = {
  acct: 'account',
  key: 'API key',
  tpl: 'template',
  sub: 'submission',
  sbm: 'submitter',
  evt: 'event',
  whk: 'webhook endpoint',
  dlv: 'delivery',
  job: 'job',
  req: 'request',
  mem: 'console member',
  cses: 'console session',
  csil: 'console sign-in link',
  tdr: 'template draft',
  grm: 'signer group member',
  bulk: 'bulk send',
  hold: 'legal hold',
  era: 'erasure',
}

export function idName(prefix: IdPrefix): string {
  return ID_NAMES[prefix]
}

export function Id(prefix: IdPrefix, description?: string) {
  return Type.String({
    pattern: idPattern(prefix),
    description: description ?? `${ID_NAMES[prefix]} id: \`${prefix}_\` followed by 24 base62 characters`,
    examples: [`${prefix}_4f9XqK2mR8sT1vW3yZ5bC7dE`],
  })
}

export function IdParams(prefix: IdPrefix) {
  return Type.Object({ id: Id(prefix) }, { additionalProperties: false })
}

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601, UTC, with milliseconds',
  examples: ['2026-11-22T10:15:30.123Z'],
})

export const Environment = StringEnum(['test', 'live'] as const, { description: 'API key environment' })
export type Environment = Static<typeof Environment>

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      type: Type.String({
        description: 'authentication_error, invalid_request_error, rate_limit_error or api_error',
      }),
      code: Type.String({ description: 'Machine-readable code (open enumeration)' }),
      message: Type.String({ description: 'Human-readable explanation naming what is wrong' }),
      param: Type.Optional(
        Type.String({
          description:
            'The request field the error is about, as a path (`submitters[0].email`, `expires_at`); the message begins with it. Absent when the error is about no one field',
          examples: ['submitters[0].email'],
        }),
      ),
    }),
  },
  { title: 'Error' },
)
export type ErrorBody = Static<typeof ErrorBody>

/** Query parameters shared by every list route (docs/api.md#pagination). */
export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100' }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque `next_cursor` of the previous page' }),
  ),
}

/** `{ data, has_more, next_cursor }` (docs/api.md#pagination). */
export function Page<T extends TSchema>(item: T, title: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as `cursor` to get the next page; null on the last page',
      }),
    },
    { title },
  )
}

/**
 * A value or null, as `type: [T, 'null']` rather than `anyOf`: the response serializer handles a
 * type list directly, while an anyOf makes it validate every value at run time to pick a branch
 * (that cost a submission response tens of microseconds).
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type } = schema as { type?: string }
  if (typeof type !== 'string') throw new Error('Nullable() takes a schema with a single type')
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
}

/** docs/api.md#limits: keys at most 100 characters; values string (≤ 2000), number, boolean or null. */
export const Metadata = Type.Unsafe<Record<string, string | number | boolean | null>>({
  type: 'object',
  title: 'Metadata',
  description:
    'Your own key-value data: keys up to 100 characters, values string (up to 2000), number, boolean or null; at most 50 keys',
  maxProperties: 50,
  propertyNames: { maxLength: 100 },
  // One type list (maxLength applies to strings only): cheaper to serialize than an anyOf.
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 2000 },
})

/**
 * An e-mail address as people write it, read by src/lib/email-address.ts (the `email` format of
 * src/http/validation.ts): docs/api.md#e-mail-addresses.
 */
export const Email = Type.String({
  format: 'email',
  maxLength: 320,
  description:
    'An e-mail address as written (docs/api.md#e-mail-addresses): an internationalized domain is accepted (zoe@müller-bau.de, or pre-encoded xn--) and mail goes to its ASCII form; a local part that is not ASCII (jörg@…) only when the SMTP server announces SMTPUTF8, else 422 `email_not_deliverable`. Encoded, the local part is at most 64 octets, a domain label 63 characters, the domain 253 and the address 254; a label mixing Latin, Greek and Cyrillic letters is refused',
})
