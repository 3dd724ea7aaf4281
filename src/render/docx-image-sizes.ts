// mammoth drops the size Word gives an image (`wp:extent`, in EMU) and writes a bare <img>, which
// prints at the image's pixel size: a 2 000-pixel logo shrunk to 3 cm in Word would fill the
// page. mammoth does pass an image's alternative text through (`wp:docPr descr`), so before it
// reads word/document.xml each drawing's extent is written at the front of that text, and the
// image converter (docx-child.ts) takes it back out as width and height attributes. The scan is
// indexOf-based, linear in the document; a drawing it cannot read safely is left as it was.

const EMU_PER_PX = 9525 // 914 400 EMU per inch, 96 px per inch
const MARK = /^\[\[paraph-size:(\d{1,12})x(\d{1,12})\]\]/
const EXTENT = '<wp:extent '
const DOC_PR = '<wp:docPr'

/** word/document.xml with each drawing's extent written into its docPr's `descr`. */
export function markImageSizes(xml: string): string {
  const out: string[] = []
  let copied = 0
  let docPr = -1
  for (let extent = xml.indexOf(EXTENT); extent >= 0; ) {
    const extentEnd = xml.indexOf('>', extent)
    if (extentEnd < 0) break
    const next = xml.indexOf(EXTENT, extentEnd)
    // The docPr of this drawing comes after its extent and before the next drawing's.
    if (docPr < extentEnd) docPr = xml.indexOf(DOC_PR, extentEnd)
    if (docPr < 0) break
    const size = /cx="(\d{1,12})" cy="(\d{1,12})"/.exec(xml.slice(extent, extentEnd))
    const docPrEnd = xml.indexOf('>', docPr)
    if (size && docPrEnd > 0 && (next < 0 || docPr < next)) {
      const marked = markDocPr(xml.slice(docPr, docPrEnd), `[[paraph-size:${size[1]}x${size[2]}]]`)
      if (marked) {
        out.push(xml.slice(copied, docPr), marked)
        copied = docPrEnd
      }
    }
    extent = next
  }
  out.push(xml.slice(copied))
  return out.join('')
}

/** `<wp:docPr …` (without its `>`) with the mark in front of `descr`; undefined if unsure. */
function markDocPr(tag: string, mark: string): string | undefined {
  const descr = /\sdescr="([^"]*)"/.exec(tag)
  if (descr) return tag.replace(descr[0], ` descr="${mark}${descr[1]}"`)
  // An attribute written some other way (single quotes, spaces around =): leave the tag alone.
  if (/\sdescr\s*=/.test(tag)) return undefined
  // mammoth falls back on `title` when `descr` is blank: the mark must not hide it.
  const title = /\stitle="([^"]*)"/.exec(tag)?.[1] ?? ''
  return `${DOC_PR} descr="${mark}${title}"${tag.slice(DOC_PR.length)}`
}

/** The alternative text without the mark, and the size it carried in CSS pixels, if any. */
export function readImageMark(altText: string | undefined): { alt: string; width?: number; height?: number } {
  const mark = MARK.exec(altText ?? '')
  if (!mark) return { alt: altText ?? '' }
  const [width, height] = [Number(mark[1]), Number(mark[2])].map((emu) => Math.round(emu / EMU_PER_PX))
  const alt = altText!.slice(mark[0].length)
  // A size of nothing, or of more than any page, says nothing useful: the stylesheet's caps apply.
  if (!(width! >= 1 && height! >= 1 && width! <= 20_000 && height! <= 20_000)) return { alt }
  return { alt, width: width!, height: height! }
}
