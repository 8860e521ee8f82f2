/**
 * carbon-agui-rx/tool-client: call an HTTP tool server (docs/tool-server-protocol.md)
 * from a TypeScript backend or a browser.
 */
export { EVENTS_QUEUE_LIMIT, ToolClient } from "./client";
export type { EventsOptions, ServerEvent } from "./events";
export type { AdapterOptions, FrameworkToolOptions, ToolDefinition, ToolInvoker, ToolOutcome, VercelToolFactory, VercelToolSpec } from "./frameworkTools";
export {
  ApprovalAlreadyDecidedError,
  ApprovalDeniedError,
  ApprovalNotFoundError,
  BadRequestError,
  BudgetExceededError,
  ConflictError,
  errorFromProblem,
  EventStreamError,
  ForbiddenError,
  GuardrailBlockedError,
  InternalServerError,
  ModelError,
  NotFoundError,
  RunLimitExceededError,
  ServiceUnavailableError,
  ToolArgsInvalidError,
  ToolClientError,
  ToolError,
  ToolFailedError,
  ToolNotFoundError,
  ToolProtocolError,
  ToolServerError,
  ToolTimeoutError,
  ToolTransportError,
  ToolUsageError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableContentError,
  type Problem,
  type ToolArgumentProblem,
} from "./errors";
export type {
  ApprovalDenied,
  ApprovalRequest,
  CallOptions,
  DecideOptions,
  DecideResult,
  Decision,
  InvokeOptions,
  InvokeResult,
  JsonSchema,
  LedgerSummary,
  ListToolsOptions,
  PendingApproval,
  RetryOptions,
  ToolClientOptions,
  ToolDescriptor,
  ToolResult,
  ToolShape,
} from "./types";
