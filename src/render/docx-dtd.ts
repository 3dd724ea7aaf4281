// issue #20 item 6: a DOCX whose XML declares a document type or an entity is bad input, refused
// (`refused_docx`, the API's 422 invalid_docx) before mammoth parses anything (it used to fail inside mammoth as a 500
// `docx_convert_failed`, logged with its stack). DTDs are how XML expands entities without bound,
// and a package may not carry one: ECMA-376 Part 2 [M1.18] makes a DTD declaration an error. Word
// never writes one. Every entry is read, not only those named `.xml`: mammoth finds its parts
// through relationships, which may name any entry. Pure.
import { RenderError } from './render-error.ts'

const KEYWORDS = ['DOCTYPE', 'ENTITY'] as const

/** The entry as text: UTF-16 (ECMA-376 Part 2 [M1.17] allows it, with or without a BOM) decoded. */
function searchable(bytes: Buffer): string {
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2))
  if (bytes.length >= 2 && (bytes[1] === 0 || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
    return even.toString('utf16le')
  }
  if (bytes.length >= 2 && (bytes[0] === 0 || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return Buffer.from(even).swap16().toString('utf16le')
  }
  return bytes.toString('latin1')
}

/** `DOCTYPE` or `ENTITY` when the text declares one (in any case, as a lenient parser reads it). */
function declarationIn(text: string): (typeof KEYWORDS)[number] | undefined {
  // indexOf, not a case-insensitive pattern: 50 MiB are scanned in about 50 ms rather than 600.
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2)) {
    const word = text.slice(at + 2, at + 9).toUpperCase()
    const found = KEYWORDS.find((keyword) => word.startsWith(keyword))
    if (found) return found
  }
  return undefined
}

/** Refuses the first entry holding `<!DOCTYPE` or `<!ENTITY`, naming it. */
export function refuseDtdDeclarations(files: Map<string, Buffer>): void {
  for (const [name, bytes] of files) {
    const found = declarationIn(searchable(bytes))
    if (!found) continue
    const what = found === 'DOCTYPE' ? 'a document type (<!DOCTYPE)' : 'an entity (<!ENTITY)'
    throw new RenderError(
      'refused_docx',
      `file: ${name} declares ${what}; a DOCX may not (ECMA-376 Part 2 forbids DTDs in its XML). Save it again from Word, or send it as PDF`,
    )
  }
}
