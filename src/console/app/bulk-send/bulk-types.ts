// The bulk-send answers the console reads (docs/api.md#bulk-send).
import type { FailedRow, RowError } from './failed-rows.ts'

export interface BulkSendCheck {
  object: 'bulk_send_check'
  rows: number
  errors: (RowError & { code: string; column: string })[]
}

export type BulkSendStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'cancelled'

export interface BulkSend {
  object: 'bulk_send'
  id: string
  template_id: string
  status: BulkSendStatus
  counts: { total: number; created: number; failed: number; cancelled: number; pending: number }
  send_email: boolean
  created_at: string
  completed_at: string | null
  cancelled_at: string | null
}

export interface BulkSendRow extends FailedRow {
  status: 'pending' | 'created' | 'failed' | 'cancelled'
  submission_id: string | null
}

export const ENDED: readonly BulkSendStatus[] = ['completed', 'completed_with_errors', 'cancelled']
