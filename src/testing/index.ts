/**
 * carbon-agui-rx/testing: test what an agent does to the Carbon chat without
 * a browser, a model or (for marbles) a server. Nothing here reaches the main
 * entry's bundle.
 */
export { ev, eventMarble, TEST_RUN_ID, TEST_THREAD_ID } from "./events";
export { carbon, TEST_RESPONSE_ID } from "./carbon";
export { CarbonRecorder } from "./recorder";
export { marbleTest, type CarbonExpectation, type MarbleTestHelpers, type MarbleTestOptions } from "./marbleTest";
export { scriptedAgent, startAgentServer, type AgentScript, type AgentServer, type AgentServerOptions, type Scenario, type ScriptedAgent, type SseResponse } from "./agentServer";
export {
  startToolServer,
  ToolModelError,
  ToolUsage,
  type ToolServer,
  type ToolServerFault,
  type ToolServerOptions,
  type ToolServerPrincipal,
  type ToolServerRequest,
  type ToolServerRoute,
  type ToolServerTool,
  type ToolServerToolContext,
} from "./toolServer";
