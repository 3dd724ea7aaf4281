// Runs a command-line PDF tool on bytes, for test/pdf-checks.ts: the bytes go to a private
// temporary file, removed afterwards; the tool runs with a timeout, and a failure carries its output.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Long enough for a 100-page file on a loaded machine; a hang still ends. */
const TIMEOUT_MS = 60_000
const MAX_OUTPUT = 64 * 1024 * 1024

export class ToolError extends Error {
  override readonly name = 'ToolError'
  readonly command: string
  readonly code: number | string | null
  readonly output: string
  constructor(command: string, code: number | string | null, output: string) {
    super(`${command} exited ${code}: ${output.trim().slice(0, 2000)}`)
    this.command = command
    this.code = code
    this.output = output
  }
}

export interface Run {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs `command` on the bytes saved to a file; `args` are put before the file's path, or built
 * around it when a function. Resolves for the exit codes in `accept`, throws otherwise.
 */
export async function runOn(
  bytes: Uint8Array,
  command: string,
  args: string[] | ((path: string) => string[]),
  accept: number[] = [0],
): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-check-'))
  try {
    const path = join(dir, 'input.pdf')
    await writeFile(path, bytes)
    const result = await new Promise<Run>((resolve, reject) => {
      execFile(
        command,
        typeof args === 'function' ? args(path) : [...args, path],
        { timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error ? (error as NodeJS.ErrnoException & { code?: unknown }).code : 0
          if (typeof code === 'number') resolve({ code, stdout, stderr })
          else reject(new ToolError(command, code ?? (error?.signal || null), `${stdout}${stderr}`))
        },
      )
    })
    if (!accept.includes(result.code))
      throw new ToolError(command, result.code, `${result.stdout}${result.stderr}`)
    return result
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
