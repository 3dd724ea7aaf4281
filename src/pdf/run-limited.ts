// Runs a parser on untrusted input in a child process the kernel bounds: an address-space limit
// (RLIMIT_AS) stops a decompression bomb, a kill on timeout stops a loop, a capped stdout stops an
// output flood. A worker thread would not do: typed arrays live outside its heap limit.
import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

export interface Limits {
  timeoutMs: number
  memoryBytes: number
  /** Past this the child is killed; stdout is what we parse, so it is never truncated silently. */
  maxStdoutBytes: number
}

export interface LimitedRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  /** The first and last few KB only: a broken file can make poppler print megabytes of warnings. */
  stderr: string
  timedOut: boolean
  stdoutTooLarge: boolean
}

const STDERR_KEEP = 8 * 1024
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
 * The command wrapped so its address space is capped before it starts: prlimit when present,
 * else `ulimit -v` in sh. Both exec the command in place, so the pid we kill on timeout is the
 * parser's own. `&&` makes a shell that cannot set the limit fail rather than run unbounded.
 */
export function withMemoryLimit(
  command: string,
  args: string[],
  memoryBytes: number,
  prlimit = findPrlimit(),
): [string, string[]] {
  if (prlimit) return [prlimit, [`--as=${memoryBytes}`, command, ...args]]
  const kib = Math.ceil(memoryBytes / 1024)
  return ['/bin/sh', ['-c', `ulimit -v ${kib} && exec "$0" "$@"`, command, ...args]]
}

export function runLimited(command: string, args: string[], limits: Limits): Promise<LimitedRun> {
  const [file, wrappedArgs] = withMemoryLimit(command, args, limits.memoryBytes)
  const child = spawn(file, wrappedArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
  const stdout: Buffer[] = []
  let stdoutBytes = 0
  let stderrHead = Buffer.alloc(0)
  let stderrTail = Buffer.alloc(0)
  let timedOut = false
  let stdoutTooLarge = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, limits.timeoutMs)

  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length
    if (stdoutBytes > limits.maxStdoutBytes) {
      stdoutTooLarge = true
      child.kill('SIGKILL')
    } else stdout.push(chunk)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    const room = Math.max(0, STDERR_KEEP - stderrHead.length)
    if (room > 0) stderrHead = Buffer.concat([stderrHead, chunk.subarray(0, room)])
    if (chunk.length > room)
      stderrTail = Buffer.concat([stderrTail, chunk.subarray(room)]).subarray(-STDERR_KEEP)
  })

  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: `${stderrHead.toString('utf8')}\n${stderrTail.toString('utf8')}`,
        timedOut,
        stdoutTooLarge,
      })
    })
  })
}
