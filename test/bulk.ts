// Bulk-send test kit (docs/api.md#bulk-send): a template of two roles whose fields cover the value
// types a row may prefill, rows for it, and the job run by the worker's own code.
import { jobCatalogue } from '../src/job-catalogue.ts'
import { drainJobs } from '../src/jobs/worker.ts'
import { base64, post } from './documents.ts'
import { a4 } from './fixtures/pdfs.ts'
import { type TestApp, whatHappened } from './harness.ts'

const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.04 }]

/** Employee: signature, Salary (number), Start date (date), Handbook read (checkbox), Contract ref (required, read-only). Manager: signature, Office (select). */
export async function bulkTemplate(t: TestApp, key: string): Promise<string> {
  const res = await post(t, key, '/v1/templates', {
    name: 'Employment contract',
    documents: [
      {
        pdf_base64: base64(await a4()),
        fields: [
          { name: 'Employee signature', role: 'Employee', areas: area(0.85) },
          { name: 'Salary', type: 'number', role: 'Employee', required: false, areas: area(0.1) },
          { name: 'Start date', type: 'date', role: 'Employee', required: false, areas: area(0.2) },
          { name: 'Handbook read', type: 'checkbox', role: 'Employee', required: false, areas: area(0.3) },
          { name: 'Contract ref', type: 'text', role: 'Employee', readonly: true, areas: area(0.4) },
          { name: 'Manager signature', role: 'Manager', areas: area(0.75) },
          {
            name: 'Office',
            type: 'select',
            role: 'Manager',
            required: false,
            options: ['Lyon', 'Paris, 9e'],
            areas: area(0.5),
          },
        ],
      },
    ],
  })
  if (res.statusCode !== 201) throw new Error(`template creation failed: ${whatHappened(t, res)}`)
  return res.json().id
}

/** Row `n` of a valid bulk send for bulkTemplate. */
export function bulkRow(n: number) {
  return {
    submitters: [
      { role: 'Employee', email: `employee${n}@example.eu`, name: `Employee ${n}` },
      { role: 'Manager', email: `manager${n % 7}@example.eu` },
    ],
    values: { Salary: 40_000 + n, 'Start date': '2027-01-04', 'Contract ref': `C-${n}`, Office: 'Lyon' },
    external_id: `emp-${n}`,
  }
}

/** Runs every due job (the bulk send's runs, then the mails and events they queue). */
export async function runJobs(t: TestApp): Promise<void> {
  await drainJobs({ ...t.deps, catalogue: jobCatalogue(t.deps) })
}
