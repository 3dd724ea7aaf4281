// The bulk send of issue #35's crash test and bench row (docs/api.md#bulk-send): a template of two
// roles, a signature each and three fields to prefill, and N JSON rows for it. Shared by
// test/faults/bulk-send-kill.test.ts and bench/scenarios/bulk-send.ts, so both send the same rows.

const area = (y: number, x = 0.1) => ({ page: 1, x, y, w: 0.3, h: 0.05 })

/** The body of POST /v1/templates: roles Employee and Manager, fields Salary, Start date and Office. */
export function threeFieldTemplateBody(pdfBase64: string): Record<string, unknown> {
  return {
    name: 'Employment contract',
    documents: [
      {
        name: 'Contract',
        pdf_base64: pdfBase64,
        fields: [
          { name: 'Salary', type: 'number', role: 'Employee', areas: [area(0.2)] },
          { name: 'Start date', type: 'date', role: 'Employee', areas: [area(0.3)] },
          { name: 'Office', type: 'text', role: 'Manager', areas: [area(0.4)] },
          { name: 'Employee signature', type: 'signature', role: 'Employee', areas: [area(0.8)] },
          { name: 'Manager signature', type: 'signature', role: 'Manager', areas: [area(0.8, 0.6)] },
        ],
      },
    ],
  }
}

/** Managers shared by the rows, as a company's few managers sign for many employees. */
const MANAGERS = 50

/** Row `i` (from 1): one employee of its own, a manager among 50, values for the three fields. */
export function threeFieldRow(i: number) {
  return {
    submitters: [
      { role: 'Employee', email: `employee-${i}@example.eu`, name: `Employee ${i}` },
      { role: 'Manager', email: `manager-${i % MANAGERS}@example.eu`, name: `Manager ${i % MANAGERS}` },
    ],
    values: {
      Salary: 40_000 + (i % 100) * 250,
      'Start date': `2027-0${1 + (i % 9)}-0${1 + (i % 9)}`,
      Office: ['Lyon', 'Paris, 9e', 'Nantes'][i % 3]!,
    },
    external_id: `emp-${i}`,
  }
}

/** Rows 1 to `n`. */
export function threeFieldRows(n: number) {
  return Array.from({ length: n }, (_, k) => threeFieldRow(k + 1))
}

/**
 * Row `i` as the body of POST /v1/submissions (docs/api.md#creating-a-submission): the same
 * submission created one by one, each role's values under its submitter's `fields`.
 */
export function threeFieldSubmissionBody(templateId: string, i: number, sendEmail: boolean) {
  const { submitters, values } = threeFieldRow(i)
  const [employee, manager] = submitters
  return {
    template_id: templateId,
    send_email: sendEmail,
    submitters: [
      { ...employee, fields: { Salary: values.Salary, 'Start date': values['Start date'] } },
      { ...manager, fields: { Office: values.Office } },
    ],
    metadata: { external_id: `emp-${i}` },
  }
}
