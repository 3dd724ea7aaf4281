// A submission's name, as the console shows it: its template's. The API gives a submission no name
// of its own, and needs none: every submission points to a template (docs/api.md#templates), and
// that template's name is what the sender gave — the stored template's for POST /v1/submissions,
// the first document's name behind from_pdf, the body's `name` behind from_html and from_docx (their
// internal templates are read by id like any other). Templates never change (the API has no
// PATCH), so a name read once is kept for the session; a failed read is not kept (tried again on
// the next page) and the page shows the id meanwhile.
import { useEffect, useState } from 'preact/hooks'
import { get } from './api.ts'
import type { Template } from './types.ts'

const names = new Map<string, Promise<string>>()

function templateName(id: string): Promise<string> {
  let name = names.get(id)
  if (!name) {
    name = get<Template>(`/v1/templates/${encodeURIComponent(id)}`).then((t) => t.name)
    name.catch(() => names.delete(id))
    names.set(id, name)
  }
  return name
}

/** The names of these templates, as they arrive (id → name); an unknown or unreadable one is absent. */
export function useTemplateNames(ids: readonly string[]): Record<string, string> {
  const [known, setKnown] = useState<Record<string, string>>({})
  const key = [...new Set(ids)].sort().join(',')
  useEffect(() => {
    let current = true
    for (const id of key ? key.split(',') : []) {
      templateName(id).then(
        (name) => current && setKnown((k) => (k[id] === name ? k : { ...k, [id]: name })),
        () => {},
      )
    }
    return () => {
      current = false
    }
  }, [key])
  return known
}
