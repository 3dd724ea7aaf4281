// docs/api.md#deliveries and docs/operations.md#configuration: WEBHOOK_RETRY_SCHEDULE gives, for
// each attempt, its time in seconds after the event (default 0, 30 s, 5 min, 30 min, 2 h, 6 h, 24
// h, 72 h: 8 attempts). An attempt that comes late (a backlog, a restart) does not push the later
// ones: each is due at its own time, or at once when that time has passed. Pure.

/** When attempt `attemptsDone + 1` is due, or null when the schedule has no attempt left. */
export function nextAttemptAt(
  eventCreatedAt: string,
  attemptsDone: number,
  schedule: readonly number[],
  now: Date,
): Date | null {
  const offset = schedule[attemptsDone]
  if (offset === undefined) return null
  const due = Date.parse(eventCreatedAt) + offset * 1000
  return new Date(Math.max(due, now.getTime()))
}
