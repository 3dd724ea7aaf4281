// The bulk-send answers the console reads (docs/api.md#bulk-send): the server's own schemas, as
// types (`import type` is erased: nothing of the server reaches the bundle; see ../types.ts).
import type { BulkSend, BulkSendCheck, BulkSendRow } from '../../../bulk-sends/bulk-send-schemas.ts'

export type { BulkSend, BulkSendCheck, BulkSendRow }

export const ENDED: readonly BulkSend['status'][] = ['completed', 'completed_with_errors', 'cancelled']
