// For the child processes that read untrusted PDFs with MuPDF: MuPDF reports every oddity it
// repairs on stderr ("warning: …", "format error: …"), and a damaged upload can raise thousands of
// them, costing the child time and filling the server's logs with text an attacker chose. What the
// reading of a file comes to is the child's answer, not these lines, so they are dropped; anything
// else on stderr (a crash at start, which child-pool.ts reports) still goes through.
//
// Emscripten's own `printErr` option cannot be used: it must be set before `mupdf` loads, and in the
// child's bundle the `import 'mupdf'` is hoisted above all code. Its default printErr is
// console.error, which writes each line to process.stderr: filtered here, whenever this runs.

const MUPDF_REPORT = /^(warning|[a-z ]*error): /

/** Drops MuPDF's report lines from this process's stderr. */
export function quietMupdf(): void {
  const write = process.stderr.write.bind(process.stderr)
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (typeof chunk === 'string' && MUPDF_REPORT.test(chunk)) return true
    return write(chunk, ...rest)
  }) as typeof process.stderr.write
}
