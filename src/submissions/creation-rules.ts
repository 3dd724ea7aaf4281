// Business rules of submission creation beyond the schema (docs/api.md#creating-a-submission,
// docs/api.md#statuses-and-moves). Pure.
import type { StoredField } from '../documents/document-model.ts'
import { dateRangeProblem, type FieldValue, valueProblem } from '../documents/field-values.ts'
import { fieldError } from '../errors.ts'
import { own } from '../lib/own.ts'
import type { AddressInput } from '../mail/address-delivery.ts'
import { unknownVariables, variableList } from '../mail/messages/variables.ts'
import type { CommonOptions } from './creation-schemas.ts'
import { checkAddressOrGroup, type GroupRequest } from './group-rules.ts'

export function checkCommonOptions(options: CommonOptions, now: Date): void {
  if (options.expires_at !== undefined && new Date(options.expires_at).getTime() <= now.getTime()) {
    throw fieldError(
      'invalid_request',
      'expires_at',
      `must be in the future (it is ${options.expires_at}; now is ${now.toISOString()}).`,
    )
  }
  checkMessageVariables(options.message)
}

/** A `{{…}}` naming no variable would reach the signer as written: refused by path at creation. */
function checkMessageVariables(message: CommonOptions['message']): void {
  for (const part of ['subject', 'body'] as const) {
    const unknown = unknownVariables(message?.[part] ?? '')[0]
    if (unknown !== undefined) {
      throw fieldError(
        'invalid_request',
        `message.${part}`,
        `unknown variable ${unknown} (variables: ${variableList()}).`,
      )
    }
  }
}

/** Every address of a creating request, by path, for checkDeliverable (docs/api.md#e-mail-addresses). */
export function creationAddresses(
  options: Pick<CommonOptions, 'bcc_email' | 'reply_to'>,
  submitters: Array<{ email?: string; members?: Array<{ email: string }> }>,
): AddressInput[] {
  return [
    ...submitters.flatMap((s, i) => [
      { param: `submitters[${i}].email`, email: s.email },
      ...(s.members ?? []).map((m, j) => ({ param: `submitters[${i}].members[${j}].email`, email: m.email })),
    ]),
    { param: 'bcc_email', email: options.bcc_email },
    { param: 'reply_to', email: options.reply_to },
  ]
}

export interface SubmitterRequest {
  role: string
  completed?: boolean
  require_phone_2fa?: boolean
  /** Values given at creation: prefill (template route) or preset values (inline routes). */
  values: Record<string, FieldValue>
  /** Where the values came from in the body, for messages. */
  valuesPath: (name: string) => string
}

/** Refusals that need no document: checked before any PDF is downloaded. */
export function checkSubmitterFlags(
  submitters: Array<Pick<SubmitterRequest, 'role' | 'require_phone_2fa' | 'completed'> & GroupRequest>,
): void {
  const seen = new Map<string, number>()
  for (const [i, s] of submitters.entries()) {
    checkAddressOrGroup(s, `submitters[${i}]`)
    if (s.require_phone_2fa) {
      throw fieldError(
        'phone_2fa_not_supported',
        `submitters[${i}].require_phone_2fa`,
        `phone verification is not supported; use require_email_2fa.`,
      )
    }
    const earlier = seen.get(s.role)
    if (earlier !== undefined) {
      throw fieldError(
        'invalid_request',
        `submitters[${i}].role`,
        `"${s.role}" is already the role of submitters[${earlier}]; each role signs once.`,
      )
    }
    seen.set(s.role, i)
  }
}

function list(values: string[]): string {
  return values.map((v) => `"${v}"`).join(', ')
}

/** Roles, prefilled values and pre-signed submitters against the template's fields. */
export function checkSubmittersAgainstFields(submitters: SubmitterRequest[], fields: StoredField[]): void {
  const roles = [...new Set(fields.map((f) => f.role))]
  for (const [i, s] of submitters.entries()) {
    if (!roles.includes(s.role)) {
      throw fieldError(
        'submitter_role_not_in_template',
        `submitters[${i}].role`,
        `"${s.role}" matches no role of the document (roles: ${list(roles) || 'none — declare fields with a role'}).`,
      )
    }
  }
  const missing = roles.filter((r) => !submitters.some((s) => s.role === r))
  if (missing.length > 0) {
    throw fieldError(
      'invalid_request',
      'submitters',
      `no submitter for role(s) ${list(missing)} of the document.`,
    )
  }
  // Every submitter pre-signed is allowed (docs/api.md#pre-signed-submitters): the submission is
  // complete at creation and its final PDF is made at once (record-submission.ts).
  for (const [i, s] of submitters.entries()) checkValues(s, i, fields)
}

function checkValues(s: SubmitterRequest, index: number, fields: StoredField[]): void {
  for (const [name, value] of Object.entries(s.values)) {
    const field = fields.find((f) => f.name === name)
    if (!field) {
      throw fieldError(
        'invalid_request',
        s.valuesPath(name),
        `no field "${name}" in the document (fields: ${list(fields.map((f) => f.name))}).`,
      )
    }
    if (field.role !== s.role) {
      throw fieldError(
        'invalid_request',
        s.valuesPath(name),
        `field "${name}" belongs to role "${field.role}", not "${s.role}".`,
      )
    }
    const problem = valueProblem(field, value) ?? dateRangeProblem(field, value)
    if (problem) throw fieldError('invalid_request', s.valuesPath(name), `${problem}.`)
  }
  if (s.completed) {
    const unfilled = fields.filter(
      (f) => f.role === s.role && f.required && own(s.values, f.name) === undefined,
    )
    if (unfilled.length > 0) {
      throw fieldError(
        'invalid_request',
        `submitters[${index}].fields`,
        `a pre-signed submitter needs a value for ${list(unfilled.map((f) => f.name))}.`,
      )
    }
  }
}
