// Row types of bulk send (docs/api.md#bulk-send, migration 0026): the job and its rows.
// Re-exported by tables.ts, whose Tables lists them.
import type { Environment } from './tables.ts'

export type BulkSendStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'cancelled'

/** docs/api.md#bulk-send: one job; `options` is the request's options as JSON, for every row. */
export interface BulkSendsTable {
  id: string
  account_id: string
  environment: Environment
  template_id: string
  status: BulkSendStatus
  options: string
  total: number
  created_count: number
  failed_count: number
  cancelled_count: number
  request_id: string | null
  created_at: string
  updated_at: string
  completed_at: string | null
  cancelled_at: string | null
}

export type BulkSendRowStatus = 'pending' | 'created' | 'failed' | 'cancelled'

/** One row of a bulk send: its input as checked, and what became of it. */
export interface BulkSendRowsTable {
  bulk_send_id: string
  row: number
  status: BulkSendRowStatus
  /** The row read into a submission's submitters (JSON), or '{}' for a row failed by the check. */
  input: string
  external_id: string | null
  submission_id: string | null
  /** JSON array of {column, code, message}; '[]' unless failed. */
  errors: string
  updated_at: string
}
