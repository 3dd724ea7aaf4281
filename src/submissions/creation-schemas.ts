// docs/api.md#creating-a-submission: the options every submission-creation endpoint accepts, and
// submitters.
import { type Static, type TSchema, Type } from 'typebox'
import { REMINDER_BOUNDS } from '../config.ts'
import { FieldDeclaration, FieldName } from '../documents/field-schemas.ts'
import { Email, Metadata, Nullable, StringEnum, Timestamp } from '../http/common-schemas.ts'
import { WEB_URL } from '../http/validation.ts'
import { variablesDescription } from '../mail/messages/variables.ts'
import { GroupMember } from './signer-groups.ts'

/** A submitter's name and phone, as creation and PATCH /v1/submitters/{id} accept them. */
export const SubmitterName = Type.String({ maxLength: 200 })
export const SubmitterPhone = Type.String({ maxLength: 32, pattern: '^\\+?[0-9 ().-]{3,32}$' })

/** docs/api.md#signer-groups: one person of a signer group, as a request gives them. */
export const GroupMemberInput = Type.Object(
  {
    email: Email,
    name: Type.Optional({
      ...SubmitterName,
      description: "This member's name; default: the submitter's `name`",
    }),
  },
  { additionalProperties: false, title: 'GroupMemberInput' },
)

/** 2 to 10 people, any one of whom signs for the role (docs/api.md#signer-groups). */
export const GroupMembersInput = Type.Array(GroupMemberInput, {
  minItems: 2,
  maxItems: 10,
  description:
    'A signer group, instead of `email` (docs/api.md#signer-groups): 2 to 10 distinct addresses, each mailed a link of their own; the first member to sign signs for the role. `name`, `role`, the order and `require_email_2fa` apply to each',
})

const submitterBase = {
  role: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Must match a role of the document or template',
  }),
  email: Type.Optional({
    ...Email,
    description: `${(Email as { description?: string }).description}. Required unless \`members\` is given (a signer group), refused with it`,
  }),
  members: Type.Optional(GroupMembersInput),
  name: Type.Optional(SubmitterName),
  phone: Type.Optional(SubmitterPhone),
  external_id: Type.Optional(
    Type.String({ maxLength: 255, description: 'Echoed back to match your own records' }),
  ),
  metadata: Type.Optional(Metadata),
  send_email: Type.Optional(Type.Boolean({ description: 'Per-submitter override of `send_email`' })),
  completed: Type.Optional(
    Type.Boolean({
      description: 'Pre-signed: with `fields` of `{ name, default_value }`, signed at creation',
    }),
  ),
  require_email_2fa: Type.Optional(
    Type.Boolean({ description: 'A one-time code by e-mail before the document opens' }),
  ),
  require_phone_2fa: Type.Optional(
    Type.Boolean({ description: 'Accepted by the schema; true is refused with phone_2fa_not_supported' }),
  ),
}

/** `{ name, readonly, default_value }`: a value given at creation (pre-signed submitters). */
export const PresetValue = Type.Object(
  {
    name: FieldName,
    readonly: Type.Optional(Type.Boolean()),
    default_value: Type.Union([Type.String({ maxLength: 700_000 }), Type.Number(), Type.Boolean()], {
      description:
        'Signature/initials: PNG data URL; date: YYYY-MM-DD; text; number; checkbox; radio/select option',
    }),
  },
  { additionalProperties: false, title: 'PresetValue' },
)
export type PresetValue = Static<typeof PresetValue>

/** Submitter of the inline-document routes: fields are declarations or preset values. */
export const InlineSubmitter = Type.Object(
  {
    ...submitterBase,
    fields: Type.Optional(
      Type.Array(Type.Union([FieldDeclaration, PresetValue]), {
        maxItems: 500,
        description:
          'Field declarations (moved to the document, with this role) or, for a pre-signed submitter, `{ name, default_value }` items',
      }),
    ),
  },
  { additionalProperties: false, title: 'InlineSubmitter' },
)
export type InlineSubmitter = Static<typeof InlineSubmitter>

/** Submitter of POST /v1/submissions: fields are a map of field name to prefilled value. */
export const TemplateSubmitter = Type.Object(
  {
    ...submitterBase,
    fields: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 100 }),
        Type.Union([Type.String({ maxLength: 700_000 }), Type.Number(), Type.Boolean()]),
        {
          description: 'Prefilled values: field name → value',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'TemplateSubmitter' },
)
export type TemplateSubmitter = Static<typeof TemplateSubmitter>

/** docs/api.md#reminders: when a signer still to sign is mailed again, in (policy) hours. */
export const ReminderPolicy = Type.Object(
  {
    first_after_hours: Type.Integer({
      ...REMINDER_BOUNDS.first_after_hours,
      description: 'Hours from when the signer can act (their turn) to the first reminder',
    }),
    every_hours: Type.Integer({ ...REMINDER_BOUNDS.every_hours, description: 'Hours between reminders' }),
    max_count: Type.Integer({ ...REMINDER_BOUNDS.max_count, description: 'Automatic reminders at most' }),
  },
  { additionalProperties: false, title: 'ReminderPolicy' },
)
export type ReminderPolicy = Static<typeof ReminderPolicy>

export function creationOptions<S extends TSchema>(submitter: S) {
  return {
    submitters: Type.Array(submitter, { minItems: 1, maxItems: 50 }),
    send_email: Type.Optional(Type.Boolean({ description: 'Default true' })),
    signing_order: Type.Optional(
      StringEnum(['preserved', 'random'] as const, { description: 'Default `preserved`' }),
    ),
    expires_at: Type.Optional({ ...Timestamp, description: 'Must be in the future' }),
    redirect_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        format: WEB_URL,
        description: 'Where the signer goes after signing: an absolute https: or http: URL',
      }),
    ),
    bcc_email: Type.Optional({
      ...Email,
      description:
        'Told of each signing request sent: a notice of its own naming the document, the signer and the account, without the signer’s link or your `message` (whoever held a copy of the signer’s mail could sign in their name)',
    }),
    reply_to: Type.Optional({
      ...Email,
      description:
        'Reply-To of the mails to signers; the signing request shows it beside the account’s name, under its heading',
    }),
    metadata: Type.Optional(Metadata),
    reminders: Type.Optional(
      Type.Union([ReminderPolicy, Type.Literal(false)], {
        description:
          'Reminders mailed to each signer who has not signed (docs/api.md#reminders), or `false` for none. Absent: the instance default (`REMINDERS`)',
      }),
    ),
    message: Type.Optional(
      Type.Object(
        {
          subject: Type.Optional(
            Type.String({
              maxLength: 200,
              description: `Subject of the signing request e-mail. Variables: ${variablesDescription()}. Any other \`{{…}}\` is refused (422 \`invalid_request\`). Default: Please sign “{{document.name}}”.`,
            }),
          ),
          body: Type.Optional(
            Type.String({
              maxLength: 5000,
              description: `Text of the signing request e-mail, replacing the default greeting and invitation; a blank line starts a paragraph. The same variables as \`subject\`, HTML-escaped in the HTML part. The button and the signing link always follow, used or not.`,
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  }
}

/** The common options once read (types of creationOptions without the submitters). */
export interface CommonOptions {
  send_email?: boolean
  signing_order?: 'preserved' | 'random'
  expires_at?: string
  redirect_url?: string
  bcc_email?: string
  reply_to?: string
  metadata?: Record<string, string | number | boolean | null>
  message?: { subject?: string; body?: string }
  reminders?: ReminderPolicy | false
}

/** The creation response (docs/api.md#creating-a-submission), exactly. */
export const CreatedSubmission = Type.Object(
  {
    id: Type.String(),
    status: Type.String(),
    submitters: Type.Array(
      Type.Object({
        id: Type.String(),
        email: Nullable(
          Type.String({
            description: 'The signer’s address; null for a signer group (docs/api.md#signer-groups)',
          }),
        ),
        signing_url: Nullable(
          Type.String({
            description:
              "The signer's page; share it if you do not send e-mail. Null for a signer group: each member has their own",
          }),
        ),
        embed_src: Nullable(
          Type.String({
            description: 'JWT-bearing URL to embed the signing page in your app; null for a signer group',
          }),
        ),
        members: Type.Optional(
          Type.Array(GroupMember, {
            description: 'Only for a signer group: its people, each with their own links',
          }),
        ),
      }),
    ),
    audit_log_url: Type.String(),
    created_at: Type.String(),
  },
  { title: 'CreatedSubmission' },
)
export type CreatedSubmission = Static<typeof CreatedSubmission>
