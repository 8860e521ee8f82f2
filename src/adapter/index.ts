export { CarbonAgUiAdapter, createAgUiSendMessage, type RespondOptions } from "./CarbonAgUiAdapter";
export type { AnswerFeedback, CarbonAgUiAdapterOptions, FrontendTool } from "./options";
export type { McpProxiedMethod, McpProxiedRequest } from "./mcpRequests";
