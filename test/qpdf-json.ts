// qpdf's JSON (version 2) view of a PDF, for test/pdf-checks.ts: the keys asked for, chosen
// objects by number, and its encoding of PDF values.
import { runOn } from './run-tool.ts'

/**
 * qpdf's JSON (version 2) of the file, limited to `keys`. Warnings (a repaired file) do not fail;
 * a file qpdf cannot open, or one needing a password, does.
 */
export async function qpdfJson(bytes: Uint8Array, options: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await runOn(bytes, 'qpdf', ['--warning-exit-0', '--json=2', ...options])
  return JSON.parse(stdout) as Record<string, unknown>
}

/**
 * A value of qpdf's JSON v2: strings are "u:text" or "b:hex", names "/Name", references "N G R";
 * dictionaries are objects keyed by names, arrays arrays.
 */
export type QpdfValue = string | number | boolean | null | QpdfValue[] | { [key: string]: QpdfValue }

/** The objects asked for (`trailer` or an object number), by qpdf's key ("trailer", "obj:N G R"). */
export async function qpdfObjects(bytes: Uint8Array, ids: string[]): Promise<Map<string, QpdfValue>> {
  const json = await qpdfJson(bytes, ['--json-key=qpdf', ...ids.map((id) => `--json-object=${id}`)])
  const [, objects] = json.qpdf as [
    unknown,
    Record<string, { value?: QpdfValue; stream?: { dict: QpdfValue } }>,
  ]
  const found = new Map<string, QpdfValue>()
  for (const [key, entry] of Object.entries(objects))
    found.set(key, entry.value ?? entry.stream?.dict ?? null)
  return found
}

export const REFERENCE = /^(\d+) (\d+) R$/

/** A qpdf JSON string or name as text; other values (arrays of choices) as JSON. */
export function textOf(value: QpdfValue): string | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'string') return JSON.stringify(value)
  if (value.startsWith('u:')) return value.slice(2)
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1')
  return value.startsWith('/') ? value.slice(1) : value
}
