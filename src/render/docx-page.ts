// What mammoth's HTML fragment needs to print like the Word document it came from: a tidy pass
// that keeps `{{tags}}` (docs/api.md#html-and-docx-documents) whole and page breaks as breaks, then
// a full HTML document with a small stylesheet — DejaVu/Liberation fonts as on Debian, 11pt,
// visible table borders, Word-like heading sizes and spacing, nested numbering as Word's default
// (1., a., i.). Page size and margins are the renderer's: no `@page` here.

// Within a tag, from `{{` to `}}` across inline elements: Word can put a soft hyphen or a
// bookmark in the middle of a name, which mammoth keeps as U+00AD and as `<a id="…"></a>`.
// Neither means anything inside a tag, and either would break its name.
const TAG = /\{\{[^{}]{0,2000}\}\}/g
const EMPTY_ANCHOR = /<a id="[^"<>]*"><\/a>/g

// A hyperlink's target comes from the DOCX's relationships as written: anything but a web,
// mail or in-document link (`javascript:`, `file:`) loses its href and stays as text. mammoth
// writes attribute values with `"` escaped, so the value ends at the first `"`.
const UNSAFE_HREF = /<a href="(?!https?:|mailto:|#)[^"]*"/gi

/**
 * The fragment with tags cleaned of soft hyphens and bookmarks, page breaks as blocks, and
 * links limited to http(s), mailto and anchors.
 */
export function tidyFragment(fragment: string): string {
  return fragment
    .replace(TAG, (tag) => tag.replaceAll('\u00ad', '').replace(EMPTY_ANCHOR, ''))
    .replaceAll('<p><hr class="page-break" /></p>', '<div class="page-break"></div>')
    .replace(UNSAFE_HREF, '<a')
}

const STYLESHEET = `
html { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
body { margin: 0; color: #000; font-family: 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif;
  font-size: 11pt; line-height: 1.3; }
h1, h2, h3, h4, h5, h6 { font-weight: bold; margin: 12pt 0 6pt; break-after: avoid; }
h1 { font-size: 18pt; } h2 { font-size: 14pt; } h3 { font-size: 12pt; }
h4, h5, h6 { font-size: 11pt; } h5, h6 { font-style: italic; }
p { margin: 0 0 8pt; }
ul, ol { margin: 0 0 8pt; padding-left: 24pt; }
li > ul, li > ol { margin: 0; }
ol ol { list-style-type: lower-alpha; } ol ol ol { list-style-type: lower-roman; }
table { border-collapse: collapse; margin: 0 0 8pt; max-width: 100%; }
td, th { border: 0.75pt solid #000; padding: 2pt 5pt; vertical-align: top; }
td > p:last-child, th > p:last-child { margin-bottom: 0; }
tr { break-inside: avoid; }
img { max-width: 100%; height: auto; }
a { color: inherit; }
hr.page-break, .page-break { break-after: page; height: 0; margin: 0; border: 0; }
`

/** Escapes text for an HTML text node. */
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A whole HTML document around mammoth's fragment, ready for the renderer. */
export function docxHtmlDocument(fragment: string, title = 'Document'): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeText(title)}</title>
<style>${STYLESHEET}</style></head>
<body>
${fragment}
</body></html>
`
}
