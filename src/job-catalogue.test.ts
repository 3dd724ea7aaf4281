import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { JOBS, PERIODIC_TASKS } from './job-catalogue.ts'
import { bindJobs } from './jobs/define-job.ts'
import { bindPeriodicTasks } from './jobs/define-periodic-task.ts'

const SRC = import.meta.dirname

/** The server's source files (the browser programs declare no job). */
async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

/** Every value exported by a file of src/ that calls `define`, as its file:name. */
async function declared(define: string): Promise<Map<unknown, string>> {
  const found = new Map<unknown, string>()
  for (const path of await sourceFiles(SRC)) {
    if (path.startsWith(join(SRC, 'jobs'))) continue
    if (!(await readFile(path, 'utf8')).includes(`${define}(`)) continue
    const module = (await import(path)) as Record<string, unknown>
    for (const [name, value] of Object.entries(module)) {
      if (value && typeof value === 'object' && ('handle' in value || 'everyMs' in value))
        found.set(value, `${relative(SRC, path)}:${name}`)
    }
  }
  return found
}

describe('job catalogue', () => {
  it('lists every job kind once', () => {
    const kinds = JOBS.map((job) => job.kind)
    assert.deepEqual(kinds, [...new Set(kinds)], 'a kind listed twice')
    assert.deepEqual([...kinds].sort(), [
      'bulk_send.run',
      'events.publish',
      'mail.email_code',
      'mail.send',
      'privacy.erasure',
      'submission.finalize',
      'submission.purge_files',
      'submitter.remind',
    ])
  })

  it('lists every periodic task once', () => {
    const names = PERIODIC_TASKS.map((task) => task.name)
    assert.deepEqual(names, [...new Set(names)], 'a task listed twice')
    assert.equal(names.length, 7)
  })

  it('lists every job and periodic task defined in src/', async () => {
    for (const [define, listed] of [
      ['defineJob', JOBS],
      ['definePeriodicTask', PERIODIC_TASKS],
    ] as const) {
      const missing = [...(await declared(define))]
        .filter(([value]) => !(listed as readonly unknown[]).includes(value))
        .map(([, where]) => where)
      assert.deepEqual(missing, [], `defined with ${define} but not listed in job-catalogue.ts`)
    }
  })

  it('refuses a kind or a task name bound twice: the second would never run', () => {
    assert.throws(() => bindJobs([JOBS[0]!, JOBS[0]!], null as never), /job kind mail\.send is listed twice/)
    assert.throws(
      () => bindPeriodicTasks([PERIODIC_TASKS[0]!, PERIODIC_TASKS[0]!], null as never),
      /periodic task submissions\.expire is listed twice/,
    )
  })
})
