// Caps the memory a child process may allocate before it starts, with RLIMIT_DATA: the kernel
// refuses its heap and mmap growth past the limit (Linux ≥ 4.7 counts private writable mappings),
// so a decompression bomb fails inside the child. Not RLIMIT_AS: V8 reserves address space it
// never touches, and node does not even start under 512 MiB of it.
import { accessSync, constants } from 'node:fs'

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
