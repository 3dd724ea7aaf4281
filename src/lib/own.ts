// Client-supplied names (query parameters, body keys, metadata keys, field names) are looked up only
// as own properties: on a plain object, `record['constructor']` or `record['toString']` would find
// Object.prototype's members and hand a function to code that expected a value or nothing.

/** `record[key]` when `record` itself has that key; otherwise undefined, whatever its prototype holds. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
