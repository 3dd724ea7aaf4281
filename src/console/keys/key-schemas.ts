// Shapes of the console's API keys (/console/api/keys, docs/console.md), one schema per shape.
import { type Static, Type } from 'typebox'
import { Id, Timestamp } from '../../http/common-schemas.ts'
import { EnvironmentName } from '../access/session-schemas.ts'

export const ConsoleApiKey = Type.Object({
  object: Type.Literal('api_key'),
  id: Id('key'),
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
