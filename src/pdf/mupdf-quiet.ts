// Import this before anything that imports `mupdf`: MuPDF reports every oddity it repairs
// ("warning: …", "format error: …") on stderr, and a damaged upload can raise thousands of them,
// costing the child time and filling the logs with text an attacker chose. What the reading of a
// file comes to is the child's answer, not these lines. Anything else MuPDF's WASM runtime prints
// (an abort at start) still reaches stderr, where child-pool.ts reports it.

// Emscripten's runtime reads its options from this global when `mupdf` loads (mupdf.js:
// `libmupdf_wasm(globalThis["$libmupdf_wasm_Module"])`).
const MUPDF_REPORT = /^(warning|[a-z ]*error): /

const options = {
  printErr(line: string) {
    if (!MUPDF_REPORT.test(line)) process.stderr.write(`${line}\n`)
  },
}

Object.assign(globalThis, { $libmupdf_wasm_Module: options })
