// The pure parts of the console's "Send to many": reading and writing the CSV (RFC 4180 as
// docs/api.md#bulk-send has it), guessing and checking the mapping of columns, rewriting the list
// under the API's column names, and the failed rows' CSV.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CsvUnreadable, readCsv, writeCsv } from './app/bulk-send/csv.ts'
import { failedRowsCsv } from './app/bulk-send/failed-rows.ts'
import { columnName, guessMapping, mappingProblems, rewriteCsv } from './app/bulk-send/mapping.ts'

const template = {
  roles: ['Employee', 'Manager'],
  fields: [
    { name: 'Salary', role: 'Manager' },
    { name: 'Start date', role: 'Employee' },
  ],
} as unknown as Parameters<typeof guessMapping>[1]

function problemOf(text: string) {
  try {
    readCsv(text)
  } catch (error) {
    assert.ok(error instanceof CsvUnreadable)
    return error.problem
  }
  assert.fail('read without a problem')
}

describe('the CSV of a bulk send', () => {
  it('reads quoted commas, quoted line breaks, doubled quotes, a BOM, CRLF, and skips empty lines', () => {
    const text = '\uFEFFa,b\r\n"x, y","1\r\n2"\r\n\r\n"say ""hi""",\r\n'
    assert.deepEqual(readCsv(text), {
      header: ['a', 'b'],
      rows: [
        ['x, y', '1\r\n2'],
        ['say "hi"', ''],
      ],
    })
  })

  it('says which line is wider or narrower than the header, and which quote is not closed', () => {
    assert.deepEqual(problemOf('a,b,c\n1,2,3\n1,2\n'), { kind: 'columns', line: 3, cells: 2, expected: 3 })
    assert.deepEqual(problemOf('a,b\n"x,1\n'), { kind: 'quote', line: 2 })
    assert.deepEqual(problemOf('\n\n'), { kind: 'empty' })
  })

  it('writes what it reads back the same, and never a row as an empty line', () => {
    const rows = [['x, y', 'line\nbreak', 'a "quote"', ' edge ']]
    const header = ['a', 'b', 'c', 'd']
    assert.deepEqual(readCsv(writeCsv(header, rows)), { header, rows })
    assert.equal(writeCsv(['a'], [[''], ['x']]), 'a\r\n""\r\nx\r\n')
  })
})

describe('the mapping of columns', () => {
  it('guesses the template’s names whatever their case and spelling, each once; metadata by its prefix', () => {
    const header = [
      'Employee email',
      'MANAGER.EMAIL',
      'employee name',
      'salary',
      'Start date',
      'External ID',
      'metadata.team',
      'Notes',
    ]
    const mapping = guessMapping(header, template)
    assert.deepEqual(mapping.map(columnName), [
      'Employee.email',
      'Manager.email',
      'Employee.name',
      'field:Salary',
      'field:Start date',
      'external_id',
      'metadata.team',
      null,
    ])
  })

  it('maps a bare "email" only when the template has one role, and a column twice only once', () => {
    const one = { roles: ['Tenant'], fields: [] } as unknown as typeof template
    assert.deepEqual(guessMapping(['E-mail', 'Name'], one).map(columnName), ['Tenant.email', 'Tenant.name'])
    assert.deepEqual(guessMapping(['E-mail', 'Employee.email', 'employee email'], template).map(columnName), [
      null,
      'Employee.email',
      null,
    ])
  })

  it('holds the check back for a role without an address, a target twice, a metadata column without key', () => {
    const problems = mappingProblems(
      [
        { target: 'Employee.email', key: '' },
        { target: 'Employee.email', key: '' },
        { target: 'metadata', key: ' ' },
      ],
      template,
    )
    assert.deepEqual(problems, {
      missingRoles: ['Manager'],
      twice: ['Employee.email'],
      metadataWithoutKey: true,
    })
  })

  it('rewrites the list under the API’s names, ignored columns left out', () => {
    const table = { header: ['Mail', 'Boss', 'Notes', 'Team'], rows: [['a@x.eu', 'b@x.eu', 'n, 1', 'ops']] }
    const csv = rewriteCsv(table, [
      { target: 'Employee.email', key: '' },
      { target: 'Manager.email', key: '' },
      { target: '', key: '' },
      { target: 'metadata', key: 'team' },
    ])
    assert.equal(csv, 'Employee.email,Manager.email,metadata.team\r\na@x.eu,b@x.eu,ops\r\n')
  })
})

describe('the failed rows’ CSV', () => {
  const failed = [
    {
      row: 2,
      external_id: 'e-2',
      errors: [{ row: 2, column: 'field:Start date', message: 'must be a date YYYY-MM-DD.' }],
    },
  ]

  it('gives back the rows as written with an errors column, under the person’s own column names', () => {
    const source = {
      header: ['Mail', 'Start'],
      rows: [
        ['a@x.eu', '2027-01-04'],
        ['b@x.eu', '04/01/2027'],
      ],
    }
    const csv = failedRowsCsv(failed, source, (column) => (column === 'field:Start date' ? 'Start' : column))
    assert.deepEqual(readCsv(csv), {
      header: ['Mail', 'Start', 'errors'],
      rows: [['b@x.eu', '04/01/2027', 'Start: must be a date YYYY-MM-DD.']],
    })
  })

  it('without the file, gives what the API knows of each row', () => {
    assert.deepEqual(readCsv(failedRowsCsv(failed, undefined)).rows, [
      ['2', 'e-2', 'field:Start date: must be a date YYYY-MM-DD.'],
    ])
  })
})
