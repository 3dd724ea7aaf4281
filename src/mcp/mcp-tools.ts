// Every tool of the MCP server (docs/mcp.md#tools), as app.ts lists every route. What is not here
// an agent cannot do over MCP: no deletion, purge, key or webhook management (docs/mcp.md#what-it-cannot-do).
import type { AnyTool } from './define-tool.ts'
import { sendForSignatureTool } from './send-for-signature.ts'
import {
  cancelSubmissionTool,
  getSignedDocumentsTool,
  getSubmissionStatusTool,
  remindSignerTool,
} from './submission-tools.ts'
import { describeTemplateTool, listTemplatesTool } from './template-tools.ts'
import { verifyPdfTool } from './verify-pdf-tool.ts'

export const MCP_TOOLS: readonly AnyTool[] = [
  listTemplatesTool,
  describeTemplateTool,
  sendForSignatureTool,
  getSubmissionStatusTool,
  remindSignerTool,
  cancelSubmissionTool,
  getSignedDocumentsTool,
  verifyPdfTool,
]
