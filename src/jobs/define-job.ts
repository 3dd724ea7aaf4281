// A background job kind declared as data, as a route is: its kind, the schema of its payload, its
// retry schedule, an optional timeout and its handler. job-catalogue.ts lists every definition, as
// app.ts lists every route. A kind queued by code that must not import the handler's folder
// (lifecycle/ queues the finalization and events.publish) is declared without its handler
// (declareJob) where the enqueuer can import it, and the handler is attached where the capability
// lives: defineJob({ ...declaration, handle }).
import type { Static, TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import type { ClaimedJob } from './job-store.ts'

export interface JobDeclaration<Payload extends TSchema = TSchema> {
  /** The `kind` column: unique in the catalogue, never renamed while rows of it may wait. */
  readonly kind: string
  /**
   * The payload's schema, checked when the job is queued (a mismatch is a bug: enqueue throws) and
   * when it is claimed (a row that does not match is marked dead with the reason). Keys it does not
   * name are let through: a row queued by the previous release still runs.
   */
  readonly payload: Payload
  /** Seconds after each failed attempt before the next; attempts are one more than its length. */
  readonly retrySchedule: readonly number[]
  /**
   * The worker abandons an attempt still running after this long: the attempt fails with a
   * timeout error and is retried on the schedule. None: the attempt runs as long as it takes.
   */
  readonly timeoutMs?: number
}

export interface JobDefinition<Payload extends TSchema = TSchema, D = never> extends JobDeclaration<Payload> {
  /**
   * Runs one attempt. Must be idempotent, keyed by `job.id`: after a crash or a lapsed lease the job
   * runs again. Throw to fail the attempt (retried on the schedule), PermanentJobError to end it.
   */
  handle(payload: Static<Payload>, job: ClaimedJob, deps: D): Promise<void>
}

/**
 * Thrown by a handler for a failure no retry can mend (a mail server's permanent rejection): the
 * job is marked dead at once, whatever its retry schedule, and logged at error level.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

/** A kind and its payload schema, for code that queues it but must not import its handler. */
export function declareJob<Payload extends TSchema>(
  declaration: JobDeclaration<Payload>,
): JobDeclaration<Payload> {
  return declaration
}

/** A kind with its handler; `deps` is what the handler needs of the process's composition root. */
export function defineJob<Payload extends TSchema, D>(
  definition: JobDefinition<Payload, D>,
): JobDefinition<Payload, D> {
  return definition
}

/** The attempts a job of this kind gets: the first, then one per step of the retry schedule. */
export function attemptsOf(job: JobDeclaration): number {
  return job.retrySchedule.length + 1
}

const validators = new WeakMap<TSchema, Validator>()

function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema)
  if (!validator) {
    validator = Compile(schema)
    validators.set(schema, validator)
  }
  return validator
}

/** Why `payload` does not match the kind's schema (its first error, by path); null when it does. */
export function payloadProblem(job: JobDeclaration, payload: unknown): string | null {
  const validator = validatorOf(job.payload)
  if (validator.Check(payload)) return null
  const [first] = validator.Errors(payload)
  const where = first?.instancePath ? `${first.instancePath}: ` : ''
  return `the payload of a ${job.kind} job does not match its schema: ${where}${first?.message ?? 'invalid'}`
}

// biome-ignore lint/suspicious/noExplicitAny: a list holds definitions of different payloads
export type AnyJobDefinition<D> = JobDefinition<any, D>

/** A definition bound to one process's deps, as the worker runs it. */
export interface CatalogueEntry extends JobDeclaration {
  run(payload: unknown, job: ClaimedJob): Promise<void>
}

/** Job kind → its definition bound to `deps`. */
export type JobCatalogue = ReadonlyMap<string, CatalogueEntry>

/** Binds every definition to `deps`; a kind listed twice is refused (the second would never run). */
export function bindJobs<D>(definitions: readonly AnyJobDefinition<D>[], deps: D): JobCatalogue {
  const catalogue = new Map<string, CatalogueEntry>()
  for (const definition of definitions) {
    if (catalogue.has(definition.kind)) throw new Error(`job kind ${definition.kind} is listed twice`)
    catalogue.set(definition.kind, {
      ...definition,
      run: (payload, job) => definition.handle(payload, job, deps),
    })
  }
  return catalogue
}
