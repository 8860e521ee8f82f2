export { CarbonAgUiAdapter, createAgUiSendMessage, type RespondOptions } from "./CarbonAgUiAdapter";
export type { CarbonAgUiAdapterOptions, FrontendTool } from "./options";
