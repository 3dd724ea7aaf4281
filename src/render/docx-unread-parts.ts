// mammoth reads a DOCX's body, footnotes and endnotes, never its headers and footers. A tag
// (docs/api.md#html-and-docx-documents) there would vanish without a word, leaving a signer without
// a field, so such a file is refused with a message saying where the tag is and what to do.
import { RenderError } from './render-error.ts'

const UNREAD_PART = /^word\/(header|footer)\d*\.xml$/

/** Refuses a DOCX with `{{` in the text of a header or footer (Word may split it over runs). */
export function refuseTagsInUnreadParts(files: Map<string, Buffer>): void {
  for (const [name, xml] of files) {
    const part = UNREAD_PART.exec(name)
    if (!part) continue
    // The text of the part: elements removed, so `{` and `{` in two runs meet again.
    const text = xml.toString('utf8').replace(/<[^<>]*>/g, '')
    if (text.includes('{{')) {
      throw new RenderError(
        'refused_docx',
        `file: a {{tag}} is in the document's ${part[1]} (${name}), which is not converted; move it into the body`,
      )
    }
  }
}
