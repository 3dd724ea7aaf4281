// Caps the memory a child process may allocate before it starts, with RLIMIT_DATA: the kernel
// refuses its heap and mmap growth past the limit (Linux ≥ 4.7 counts private writable mappings),
// so a decompression bomb fails inside the child. Not RLIMIT_AS: V8 reserves address space it
// never touches, and node does not even start under 512 MiB of it.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

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

const reserved = new Map<string, number>()

/**
 * What a node process of this binary has mapped writable before it runs any code of ours: V8's JIT
 * code range, which Node.js 24 reserves at start as one 510 MiB read-write-execute mapping per
 * isolate (22: none), and which RLIMIT_DATA counts, so that node 24 does not even start under
 * 600 MiB. A node child's limit is its budget plus this, and the budget stays what the child may
 * allocate. Measured once per set of `flags` in a child started with them: a loader (`--import
 * tsx`, tests) runs its hooks in an isolate of their own, and doubles the reservation.
 */
export function nodeReservedBytes(flags: string[] = []): number {
  const key = flags.join('\0')
  let bytes = reserved.get(key)
  if (bytes === undefined) {
    const probe = flags.length
      ? [...flags, fileURLToPath(new URL('./reserved-probe.ts', import.meta.url))]
      : ['-e', "process.stdout.write(require('node:fs').readFileSync('/proc/self/maps', 'utf8'))"]
    const env = sourceChildEnv()
    const child = spawnSync(process.execPath, probe, { encoding: 'utf8', timeout: 60_000, env })
    // Should the probe fail, this process's own reservation: never less than its children's.
    bytes = reservedIn(child.status === 0 ? child.stdout : ownMaps())
    reserved.set(key, bytes)
  }
  return bytes
}

/**
 * The environment of a node child started from the sources (tests, tsx): tsx compiles what its
 * cache lacks with esbuild's synchronous API, which starts a worker thread, on Node.js 24 a second
 * isolate whose own 510 MiB code range a child's limit does not allow for (a child with a cold
 * cache, as in a fresh checkout, died at start with SIGTRAP). With worker threads off, esbuild
 * answers through a child process of its own. The probe above runs the same way, to measure alike.
 */
export function sourceChildEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ESBUILD_WORKER_THREADS: '0' }
}

function ownMaps(): string {
  try {
    return readFileSync('/proc/self/maps', 'utf8')
  } catch {
    return ''
  }
}

/** The bytes of the private read-write-execute mappings in a /proc/PID/maps text. */
export function reservedIn(maps: string): number {
  let total = 0
  for (const line of maps.split('\n')) {
    const [range = '', perms = ''] = line.split(' ')
    if (perms !== 'rwxp') continue
    const [start = '0', end = '0'] = range.split('-')
    total += Number(BigInt(`0x${end}`) - BigInt(`0x${start}`))
  }
  return total
}
