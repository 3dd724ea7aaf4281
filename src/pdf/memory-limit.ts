// Caps the memory a child process may allocate before it starts, with RLIMIT_DATA: the kernel
// refuses its heap and mmap growth past the limit (Linux ≥ 4.7 counts private writable mappings),
// so a decompression bomb fails inside the child. Not RLIMIT_AS: V8 reserves address space it
// never touches, and node does not even start under 512 MiB of it.
import { accessSync, constants, readFileSync } from 'node:fs'

let prlimitPath: string | null | undefined

/** util-linux prlimit, looked up once; null where it is missing (macOS, minimal images). */
function findPrlimit(): string | null {
  if (prlimitPath === undefined) {
    prlimitPath = null
    for (const candidate of ['/usr/bin/prlimit', '/bin/prlimit']) {
      try {
        accessSync(candidate, constants.X_OK)
        prlimitPath = candidate
        break
      } catch {
        // not here: try the next place
      }
    }
  }
  return prlimitPath
}

/**
 * The command wrapped so its data segment is capped before it starts: prlimit when present, else
 * `ulimit -d` in sh. Both exec the command in place, so the pid we kill is the command's own.
 * `&&` makes a shell that cannot set the limit fail rather than run unbounded.
 */
export function withMemoryLimit(
  command: string,
  args: string[],
  memoryBytes: number,
  prlimit = findPrlimit(),
): [string, string[]] {
  if (prlimit) return [prlimit, [`--data=${memoryBytes}`, command, ...args]]
  const kib = Math.ceil(memoryBytes / 1024)
  return ['/bin/sh', ['-c', `ulimit -d ${kib} && exec "$0" "$@"`, command, ...args]]
}

let reserved: number | undefined

/**
 * What a node process of this binary has mapped writable before it runs any code of ours: V8's JIT
 * code range, which Node.js 24 reserves at start as one 510 MiB read-write-execute mapping (22: none)
 * and which RLIMIT_DATA counts, so that node 24 does not even start under 600 MiB. A node child's
 * limit is its budget plus this, and the budget stays what the child may allocate. Read once from
 * this process's own mappings: the children run the same binary. 0 where /proc is missing.
 */
export function nodeReservedBytes(maps?: string): number {
  if (maps === undefined && reserved !== undefined) return reserved
  let text = maps
  try {
    text ??= readFileSync('/proc/self/maps', 'utf8')
  } catch {
    text = ''
  }
  let total = 0
  for (const line of text.split('\n')) {
    const [range = '', perms = ''] = line.split(' ')
    if (perms !== 'rwxp') continue
    const [start = '0', end = '0'] = range.split('-')
    total += Number(BigInt(`0x${end}`) - BigInt(`0x${start}`))
  }
  if (maps === undefined) reserved = total
  return total
}
