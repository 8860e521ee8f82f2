export { agUiToCarbon, type AgUiToCarbonOptions, type CoalesceOptions } from "./operators/agUiToCarbon";
export { validateEvents, type ValidateEventsOptions } from "./operators/check/validateEvents";
export { expandChunks } from "./operators/check/expandChunks";
export { verifySequence } from "./operators/check/verifySequence";
export { inputMessages } from "./operators/map/inputMessages";
export { sharedState } from "./operators/map/sharedState";
export { predictState, type PredictStateOptions, type StatePrediction } from "./operators/map/predictState";
export { textMessages } from "./operators/map/textMessages";
export { reasoningSteps } from "./operators/map/reasoningSteps";
export { subagentSteps, SUBAGENT_UNFINISHED, SUBAGENT_WAITING, SUBAGENT_WORKER } from "./operators/map/subagentSteps";
export { toolCallSteps, type AgUiToolCall, type ToolCallStepsOptions } from "./operators/map/toolCallSteps";
export { chainOfThought } from "./operators/map/chainOfThought";
export { A2UI_SURFACE, a2uiSurfaces, type A2uiSurfaceData, type A2uiSurfacesOptions, type A2uiUserAction } from "./operators/map/a2uiSurfaces";
export { MCP_APP, mcpApps, type McpAppData, type McpAppsOptions } from "./operators/map/mcpApps";
export { describeUsage, usageNote, type DescribeUsage } from "./operators/end/usageNote";
export { carbonItems, CARBON_ITEM_EVENT, CARBON_ITEMS_EVENT, type CarbonItemsOptions } from "./operators/map/carbonItems";
export { carbonItemProblems, CARBON_RESPONSE_TYPES, type UrlContext, type UrlPolicy } from "./itemAllowlist";
export { runOutcome, type RunOutcomeOptions } from "./operators/end/runOutcome";
export { interruptCards, type InterruptCardsOptions } from "./operators/end/interruptCards";
export { clarification, type ClarificationContext, type ClarificationOptions } from "./operators/end/clarification";
export { isExpired, toResumeEntry, type ClarificationData, type InterruptDecision, type InterruptDecisionData, type PendingInterrupt } from "./hitl";
export { activities } from "./operators/map/activities";
export { stopWhen } from "./operators/check/stopWhen";
export { applyToConversation, type ApplyToConversationOptions } from "./operators/record/applyToConversation";
export { messagesSnapshot, type MessagesSnapshotOptions } from "./operators/map/messagesSnapshot";
export { ERROR_ITEM_ID, OPTIONS_CARRIER_ID, toStreamChunks, type ToStreamChunksOptions } from "./operators/render/toStreamChunks";
export { coalesceDeltas, type AdaptiveWindow } from "./operators/render/coalesceDeltas";
export { escapeHtml } from "./operators/render/escapeHtml";

export { CarbonAgUiAdapter, createAgUiSendMessage, type AnswerFeedback, type CarbonAgUiAdapterOptions, type FrontendTool, type RespondOptions, type McpProxiedMethod, type McpProxiedRequest } from "./adapter";
export { Conversation, type Activity, type CardAnswer, type ConversationInit } from "./conversation";

export { compactEvents, CompactingEvents } from "./thread/compactEvents";
export { branchOf, type ActEntry, type ImportedEntry, type LogEntry, type RunAnswer, type RunEnd, type RunEntry, type ThreadAct, type ThreadLogData } from "./thread/log";
export { ThreadLog, type LogChange } from "./thread/threadLog";
export { replayBranch, type ChatItem, type Replayed, type ReplayOptions } from "./thread/replay";
export { logOf, snapshotOf, SNAPSHOT_VERSION, type ConversationSnapshot } from "./persistence/snapshot";
export { parseSnapshot, type SnapshotLimits } from "./persistence/schema";
export type { TranscriptDecision, TranscriptEntry, TranscriptFeedback, TranscriptRequest, TranscriptResponse } from "./persistence/transcript";
export { historyItemsOf, splitAtTurns, type CarbonHistoryItem, type CarbonHistoryRequest, type CarbonHistoryResponse, type RestoreOptions } from "./persistence/restore";
export { summaryOf, type ConversationStore, type ThreadSummary } from "./persistence/store";
export { memoryStore } from "./persistence/memoryStore";
export { indexedDbStore, type IndexedDbStoreOptions } from "./persistence/indexedDbStore";
export type { PersistenceOptions } from "./persistence/threadStore";
export type { AgentThreads, ServerThread, ServerThreadOfMessages, ServerThreadOfRuns, ThreadCallOptions, ThreadSubagent } from "./threads/agentThreads";
export { langGraphThreads, isLangGraphAgent, type LangGraphAgentLike } from "./threads/langGraphThreads";
export { connectThreads, httpConnect, agentConnect, implementsConnect, type ThreadConnect, type ConnectThreadsOptions, type HttpConnectOptions } from "./threads/connectThreads";
export { logOfServerThread } from "./threads/serverLog";
export { withCachedLog, type CachedLog } from "./threads/cachedLog";

export {
  createClarificationCard,
  createDecisionCard,
  renderDecisionCards,
  type DecisionCardOptions,
  type DecisionCardsOptions,
  type RenderedCard,
} from "./renderers/decisionCards";
export { createAnswerVersions, type AnswerVersionsOptions } from "./renderers/createAnswerVersions";
export { renderAnswerVersions, type RenderAnswerVersionsOptions } from "./renderers/renderAnswerVersions";
export { createQuestionControl, type QuestionControlOptions } from "./renderers/createQuestionControl";
export type { AnswerVersionsData, FeedbackOptions, QuestionControlData } from "./adapter/answerItems";
export type { AnswerVersionsState } from "./adapter/answerVersions";
export type { QuestionVersionsState } from "./adapter/questionVersions";
export { questionsOf, type QuestionVersions } from "./thread/questions";

export { createSseRunner, type SseRunnerOptions } from "./runners/createSseRunner";
export { fromAgent, type AgUiAgent, type FromAgentOptions } from "./runners/fromAgent";
export { langGraphSubagents, type LangGraphSubagentsOptions, type SubagentVisibility } from "./operators/check/langGraphSubagents";
export { fromObservable } from "./runners/fromObservable";
export type { ObservableRunAgent, RunAgent, RunAgentOptions } from "./runners/runAgent";

export {
  AgUiConnectionError,
  AgUiEmptyRunError,
  AgUiFrontendToolError,
  AgUiHttpError,
  AgUiNotEventStreamError,
  AgUiInvalidEventError,
  AgUiInterruptError,
  AgUiRegenerateError,
  AgUiEditError,
  AgUiInvalidItemError,
  AgUiSurfaceError,
  AgUiMcpAppError,
  AgUiProtocolError,
  AgUiRunError,
  AgUiPatchError,
  AgUiSnapshotError,
  AgUiStoreError,
  AgUiThreadSavedElsewhereError,
  AgUiThreadServerError,
  type ThreadServerProblem,
  CarbonAgUiError,
  SseFrameTooLargeError,
} from "./errors";
export { describeError } from "./describeError";

export {
  isAgUiEvent,
  isEventOfType,
  type AgUiEvent,
  type ActivityDeltaInstruction,
  type ActivitySnapshotInstruction,
  type CarbonInstruction,
  type ChainStepChange,
  type ChainStepsInstruction,
  type RunUsageInstruction,
  type SubagentSaidInstruction,
  type ClarificationShownInstruction,
  type ConversationWrite,
  type HistoryInputInstruction,
  type HistoryReserveInstruction,
  type HistorySnapshotInstruction,
  type PendingInterruptsInstruction,
  type RunFinishedInstruction,
  type RunToolCall,
  type RunToolCallsInstruction,
  type StateDeltaInstruction,
  type StateSnapshotInstruction,
  type HistoryEncryptedValueInstruction,
  type HistoryMessageInstruction,
  type ItemCompleteInstruction,
  type ItemDeltaInstruction,
  type MessageOptionsInstruction,
  type PipelineElement,
  type TurnEndInstruction,
} from "./instructions";

export {
  CancellationReason,
  MessageErrorState,
  type CarbonChainOfThoughtStep,
  type CarbonChatInstance,
  type CarbonChunkLike,
  type CarbonCompleteItemChunk,
  type CarbonEventBus,
  type CarbonFinalResponseChunk,
  type CarbonItem,
  type CarbonItemDelta,
  type CarbonItemStreamingMetadata,
  type CarbonMessageOptions,
  type CarbonMessageRequest,
  type CarbonMessageResponse,
  type CarbonPartialItemChunk,
  type CarbonReasoningStep,
  type CarbonReasoningSteps,
  type CarbonResponseType,
  type CarbonSendMessageOptions,
  type CarbonStreamChunk,
  type CarbonTextItem,
  type CarbonThreadInstance,
  type CarbonVersionsInstance,
  type CarbonEditInstance,
  type CarbonSendInstance,
  type CustomLoadHistory,
  type CustomSendMessage,
} from "./carbon";
export { describeContent } from "./contentParts";
