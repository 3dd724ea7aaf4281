// Types of tap-failures.mjs, for the test that reads it (test/tap-failures.test.ts).
export interface TapFailure {
  /** file:line:column under the checkout */
  where: string
  name: string
  /** node's failureType and the first line of the error */
  why: string
}
export function tapFailures(tap: string, root: string): TapFailure[]
