// Child processes for the servers under test: spawn, wait until they answer, read their RSS, stop.
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

export interface ServerProcess {
  name: string
  child: ChildProcess
  baseUrl: string
  /** Where the child's stdout and stderr go. */
  logFile: string
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

export function spawnServer(
  name: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; port: number; logFile: string },
): ServerProcess {
  // Output goes to a file: a pipe we had to drain would make this process part of the measurement.
  const fd = openSync(options.logFile, 'a')
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  return { name, child, baseUrl: `http://127.0.0.1:${options.port}`, logFile: options.logFile }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n')
  } catch {
    return '(no output)'
  }
}

/** Polls `path` until it answers 200; fails at the deadline or as soon as the child exits. */
export async function waitUntilReady(
  server: ServerProcess,
  path: string,
  deadlineMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited before it was ready:\n${tail(server.logFile)}`)
    }
    try {
      const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(1_000) })
      if (response.status === 200) return
    } catch {
      // Not listening yet: poll again.
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${server.name} not ready within ${deadlineMs} ms:\n${tail(server.logFile)}`)
}

// Linux reports CPU time in clock ticks of 1/100 s on every mainstream configuration.
const CLOCK_TICKS = 100

/** Resident set size in KiB from /proc (Linux only; null elsewhere or once the process is gone). */
export function rssKiB(server: ServerProcess): number | null {
  return server.child.pid === undefined ? null : pidRssKiB(server.child.pid)
}

/** User + system CPU time of the server process so far, in microseconds (from /proc). */
export function cpuMicros(server: ServerProcess): number | null {
  const fields = server.child.pid === undefined ? null : statFields(server.child.pid)
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS : null
}

/**
 * CPU time of the server process so far, in microseconds, at nanosecond resolution: the sum of the
 * first field of /proc/PID/task/TID/schedstat (time on a CPU) over its threads. utime and stime
 * count 10 ms ticks, one tick being 100 µs a request in a block of 100 one-millisecond requests.
 * A thread that ended takes its time with it (Node's threads live as long as the process).
 */
export function preciseCpuMicros(server: ServerProcess): number | null {
  const pid = server.child.pid
  if (pid === undefined) return null
  try {
    let nanos = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // the thread ended between the listing and the read
      }
    }
    return nanos / 1000
  } catch {
    return null
  }
}

/** VmRSS of any pid, in KiB; null once it is gone. */
function pidRssKiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) : null
  } catch {
    return null
  }
}

/** RSS of the server plus its direct children at this instant (Paraph parses PDFs in children). */
export function treeRssKiB(server: ServerProcess): number | null {
  const own = rssKiB(server)
  if (own === null || server.child.pid === undefined) return null
  // A child that ends between the scan and the read no longer counts.
  return childPids(server.child.pid).reduce((total, pid) => total + (pidRssKiB(pid) ?? 0), own)
}

/** RSS of each direct child of the server at this instant (the PDF inspectors, the finalizer). */
export function childrenRssKiB(server: ServerProcess): Array<{ pid: number; rssKiB: number }> {
  if (server.child.pid === undefined) return []
  return childPids(server.child.pid).flatMap((pid) => {
    const rss = pidRssKiB(pid)
    return rss === null ? [] : [{ pid, rssKiB: rss }]
  })
}

/** The command line of a pid, its arguments joined by spaces; '' once it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return ''
  }
}

/** The fields of /proc/PID/stat after "pid (comm) ", or null once the process is gone. */
function statFields(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  } catch {
    return null
  }
}

/** Pids whose parent is `pid`. Scans /proc: /proc/PID/task/TID/children is not always compiled in. */
function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(statFields(entry)?.[1]) === pid)
    .map(Number)
}

/**
 * CPU time of the server's children, in microseconds: those that exited and were waited for
 * (cutime + cstime) and those still running (utime + stime), such as Paraph's long-lived PDF
 * inspectors. What a PDF upload costs on top of the server's own cpuMicros.
 */
export function childrenCpuMicros(server: ServerProcess): number | null {
  const pid = server.child.pid
  const fields = pid === undefined ? null : statFields(pid)
  if (!fields || pid === undefined) return null
  // cutime and cstime are fields 16 and 17 of stat, 14 and 15 after "pid (comm) "; utime and stime 12, 13.
  let ticks = Number(fields[13]) + Number(fields[14])
  for (const child of childPids(pid)) {
    const own = statFields(child)
    if (own) ticks += Number(own[11]) + Number(own[12])
  }
  return (ticks * 1_000_000) / CLOCK_TICKS
}

/** SIGTERM, then SIGKILL after a grace period. */
export function stopServer(server: ServerProcess, graceMs = 5_000): Promise<void> {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/**
 * Proportional set size of every live process in process group `pgid`, in KiB (Chromium runs its
 * helpers in the browser's group; PSS splits shared pages, so the sum is not counted twice).
 */
export function groupPssKiB(pgid: number): number {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const fields = statFields(entry)
    if (!fields || fields[0] === 'Z' || Number(fields[2]) !== pgid) continue
    try {
      const match = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8'))
      total += match ? Number(match[1]) : 0
    } catch {
      // Gone between the scan and the read.
    }
  }
  return total
}
