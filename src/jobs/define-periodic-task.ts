// A task every worker runs on an interval (purges of expired rows, the expiry sweep), declared in the
// folder that owns the rows and listed in job-catalogue.ts beside the job kinds. Each must be safe to
// run on several workers at once: nothing elects one.

export interface PeriodicTask<D = never> {
  /** Names the task in the logs; unique in the catalogue. */
  readonly name: string
  readonly everyMs: number
  run(deps: D): Promise<void>
}

/** A task bound to one process's deps, as the worker loop runs it. */
export interface BoundPeriodicTask {
  readonly name: string
  readonly everyMs: number
  run(): Promise<void>
}

export function definePeriodicTask<D>(task: PeriodicTask<D>): PeriodicTask<D> {
  return task
}

/** Binds every task to `deps`; a name listed twice is refused. */
export function bindPeriodicTasks<D>(tasks: readonly PeriodicTask<D>[], deps: D): BoundPeriodicTask[] {
  const names = new Set<string>()
  return tasks.map((task) => {
    if (names.has(task.name)) throw new Error(`periodic task ${task.name} is listed twice`)
    names.add(task.name)
    return { name: task.name, everyMs: task.everyMs, run: () => task.run(deps) }
  })
}
