// Shapes of the console's API keys (/console/api/keys, docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import { KEY_NAME_MAX_LENGTH } from '../../accounts/api-keys.ts'
import { Id, Timestamp } from '../../http/common-schemas.ts'
import { EnvironmentName } from '../access/session-schemas.ts'

export const ConsoleApiKey = Type.Object({
  object: Type.Literal('api_key'),
  id: Id('key'),
  /** What the key is for, in its owner's words; null without one. */
  name: Type.Union([Type.String(), Type.Null()]),
  environment: EnvironmentName,
  /** The key's first 12 characters (`sk_test_AbCd`): enough to tell keys apart, never to use one. */
  prefix: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
})
export type ConsoleApiKey = Static<typeof ConsoleApiKey>

export const ConsoleApiKeyList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(ConsoleApiKey),
})

/** The one answer that carries a key's secret: its creation. */
export const CreatedConsoleApiKey = Type.Object({
  ...ConsoleApiKey.properties,
  /** The whole key (`sk_test_…`): shown once. */
  secret: Type.String(),
})

/** A key's name as written: at most 100 characters, no control characters; blank means none. */
export const KeyNameInput = Type.String({
  maxLength: KEY_NAME_MAX_LENGTH,
  pattern: '^[^\\u0000-\\u001f\\u007f]*$',
  description: 'What the key is for (at most 100 characters); blank for none',
})

/** POST /console/api/keys: no body, `{}`, or `{ "name": … }`. */
export const CreateConsoleApiKeyRequest = Type.Union([
  Type.Object({ name: Type.Optional(KeyNameInput) }, { additionalProperties: false }),
  Type.Null(),
])

/** POST /console/api/keys/:id/name: the new name, or null (or blank) to remove it. */
export const RenameConsoleApiKeyRequest = Type.Object(
  { name: Type.Union([KeyNameInput, Type.Null()]) },
  { additionalProperties: false },
)
