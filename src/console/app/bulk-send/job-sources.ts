// The list a bulk send was sent from, kept by the tab that sent it, so its job page can give back
// the failed rows as the person wrote them (failed-rows.ts). The API keeps no copy of the file.
// Kept in memory, and in sessionStorage when it fits (a reload of the job page keeps it).
import type { CsvTable } from './csv.ts'

export interface JobSource {
  table: CsvTable
  /** The person's header of each API column (`field:Salary` → `Annual salary`). */
  headers: Record<string, string>
}

const kept = new Map<string, JobSource>()
const storageKey = (id: string) => `paraph.console.bulk_send.${id}`

export function keepSource(id: string, source: JobSource): void {
  kept.set(id, source)
  try {
    sessionStorage.setItem(storageKey(id), JSON.stringify(source))
  } catch {
    // Over the storage quota (a large list): kept in memory only.
  }
}

export function sourceOf(id: string): JobSource | undefined {
  const known = kept.get(id)
  if (known) return known
  try {
    const text = sessionStorage.getItem(storageKey(id))
    return text ? (JSON.parse(text) as JobSource) : undefined
  } catch {
    return undefined
  }
}
