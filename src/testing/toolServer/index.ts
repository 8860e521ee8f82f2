export { startToolServer } from "./server";
export { ToolModelError, ToolUsage } from "./toolErrors";
export type {
  ToolServer,
  ToolServerFault,
  ToolServerOptions,
  ToolServerPrincipal,
  ToolServerRequest,
  ToolServerRoute,
  ToolServerTool,
  ToolServerToolContext,
} from "./types";
