// issue #20 item 6: a DOCX whose XML declares a document type or an entity is bad input, refused
// as 422 invalid_docx before mammoth parses anything (it used to fail inside mammoth as a 500
// `docx_convert_failed`, logged with its stack). DTDs are how XML expands entities without bound,
// and a package may not carry one: ECMA-376 Part 2 [M1.18] makes a DTD declaration an error. Word
// never writes one. Every entry is read, not only those named `.xml`: mammoth finds its parts
// through relationships, which may name any entry. Pure.
import { ApiError } from '../errors.ts'

const DECLARATION = /<!(DOCTYPE|ENTITY)/i

/** The entry as text for the search: UTF-16 (ECMA-376 Part 2 [M1.17] allows it) loses its NUL bytes. */
function searchable(bytes: Buffer): string {
  const utf16 =
    bytes.length >= 2 && (bytes[0] === 0 || bytes[1] === 0 || (bytes[0]! >= 0xfe && bytes[1]! >= 0xfe))
  return utf16 ? Buffer.from(bytes.filter((byte) => byte !== 0)).toString('latin1') : bytes.toString('latin1')
}

/** Refuses the first entry holding `<!DOCTYPE` or `<!ENTITY`, naming it. */
export function refuseDtdDeclarations(files: Map<string, Buffer>): void {
  for (const [name, bytes] of files) {
    const found = DECLARATION.exec(searchable(bytes))
    if (!found) continue
    const what =
      found[1]!.toUpperCase() === 'DOCTYPE' ? 'a document type (<!DOCTYPE)' : 'an entity (<!ENTITY)'
    throw new ApiError(
      'invalid_docx',
      `file: ${name} declares ${what}; a DOCX may not (ECMA-376 Part 2 forbids DTDs in its XML). Save it again from Word, or send it as PDF`,
    )
  }
}
