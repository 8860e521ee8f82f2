import type { Context, Message, Tool } from "@ag-ui/core";
import { NEVER, type Observable, type SchedulerLike } from "rxjs";
import { describerOf } from "../describeError";
import type { CarbonAgUiError } from "../errors";
import type { RestoreOptions } from "../persistence/restore";
import { frameScheduler } from "../internal/frameScheduler";
import type { AgUiToCarbonOptions } from "../operators/agUiToCarbon";
import { itemOptionsOf } from "../operators/map/carbonItems";
import { asCarbonAgUiError } from "../errors";
import { errorOnConsole, warnOnConsole } from "../internal/warnings";
import { ToolSchemas, type ToolServerApprovals } from "./approvals/toolServer";
import { answerItems, type FeedbackOptions } from "./answerItems";
import type { PersistenceOptions } from "../persistence/threadStore";
import type { AgentThreads } from "../threads/agentThreads";
import type { RunAgent } from "../runners/runAgent";
import type { ReplayOptions } from "../thread/replay";

/** The `agUiToCarbon()` options the adapter passes on to every run as they are given. */
const PASSED_ON = [
  "onEvent",
  "operators",
  "validate",
  "onInvalidEvent",
  "onInvalidItem",
  "onToolCall",
  "onActivity",
  "onUsage",
  "showUsage",
  "onRunFinished",
  "detectClarification",
  "onClarification",
  "html",
  "allowHttp",
  "allowUrl",
] as const satisfies readonly (keyof AgUiToCarbonOptions)[];

/** The `agUiToCarbon()` options the adapter takes: those passed on, and those it resolves first. */
type PipelineOptions = Pick<AgUiToCarbonOptions, (typeof PASSED_ON)[number] | "coalesce" | "onWarning" | "describeError">;

/** Feedback given on an answer through Carbon's thumbs (`feedback`), for `onFeedback`. */
export interface AnswerFeedback {
  threadId: string;
  /** The run that made the answer, when known. */
  runId?: string;
  /** The AG-UI message the feedback is on (the answer's last text), when known. */
  messageId?: string;
  /** Carbon's response id (its message id), which the transcript keeps the feedback under. */
  responseId: string;
  isPositive: boolean;
  text?: string;
  categories?: string[];
}

export interface CarbonAgUiAdapterOptions extends PipelineOptions {
  /** Starts a run: `createSseRunner({ url })`, `fromAgent(new HttpAgent({ url }))`, or your own. */
  run: RunAgent;
  /**
   * AG-UI tool definitions sent with every run: the tools the chat answers.
   * When a run ends waiting on a call of one (`pendingToolCallIds`, or, when
   * the outcome lists none, its calls the run left without a result):
   * - a tool with a `handler` runs it with the parsed arguments; its result
   *   becomes a `tool` message (a throw, one with `error`), and the agent runs
   *   again on the same thread;
   * - a tool without one is the person's to answer: its step waits, and a
   *   decision card (a pending interrupt of reason `client_tool`, its
   *   `responseSchema` the tool's `parameters`) asks. `respondToInterrupt`
   *   (the card's buttons) or `respondToToolCall` (a result of the app's own)
   *   answers it, and the agent runs again with the answer as the result.
   * A call handed to the chat for a tool not listed here fails, with that as
   * its result.
   */
  tools?: FrontendTool[];
  /**
   * Called with the error of every turn that fails. The chat already shows
   * why (the `describeError` words, as Carbon's inline error at the end of
   * the answer), so `sendMessage` resolves rather than rejects: a rejection
   * makes Carbon also put its generic "There is an error with the message you
   * just sent" under the person's own message. Errors the chat does not show
   * (`describeError` returned nothing, or Carbon refused a chunk) still reject.
   */
  onError?: (error: CarbonAgUiError) => void;
  /** Reject Carbon's send promise on every failed turn too (Carbon then marks the person's message as failed). Default `false`. */
  rejectOnError?: boolean;
  /** How many follow-up runs frontend tools may start in one turn before it fails with `AgUiFrontendToolError`. Default 5. */
  maxFrontendToolRounds?: number;
  /** AG-UI context entries sent with every run. */
  context?: Context[];
  /** Sent as `forwardedProps` with every run. Default `{}`. */
  forwardedProps?: Record<string, unknown>;
  /** The thread to continue. Default: a new random thread id. */
  threadId?: string;
  /** History to start from. */
  initialMessages?: readonly Message[];
  /** Shared state to start from (and to return to on `reset()`). Default `{}`. */
  initialState?: unknown;
  /** Called with the new shared state after each burst of STATE_SNAPSHOT / STATE_DELTA events (and on reset). */
  onStateChange?: (state: unknown) => void;
  /**
   * Paces `state$` and `onStateChange`, the merging of deltas (unless
   * `coalesce` names its own scheduler) and the hand-over of a long queue of
   * chunks to Carbon, times what each hand-over costs Carbon (to its next
   * task: the merge window widens with it), and tells the time for interrupt
   * expiry. Default: animation frames in a browser, else the async scheduler.
   */
  scheduler?: SchedulerLike;
  /**
   * Keeps each conversation in a store, so a reload brings it back
   * (`loadHistory` as Carbon's `customLoadHistory`) and earlier threads can be
   * listed and switched to. Saved at the end of every turn, on decisions,
   * feedback and `pagehide` (which stops what streams); never per delta. A
   * failing store or a snapshot that does not fit goes to `onError`; the chat
   * goes on. See docs/persistence.md.
   */
  persistence?: PersistenceOptions;
  /**
   * Where the agent keeps its threads: default `run.threads`, which
   * `fromAgent` sets for `@ag-ui/langgraph`'s agent and for agents that
   * implement AG-UI's `connect` (CopilotKit's runtime); `false` for none.
   * With it, `loadHistory` restores `threadId` from the agent's server
   * (with or without `persistence`, which becomes its cache), a run still
   * going on it is rejoined, and `listThreads`, `switchThread` and
   * `deleteThread` use the server's threads. See docs/persistence.md.
   */
  threads?: AgentThreads | false;
  /**
   * The tool server the agent's tools run on (the tool client from
   * `carbon-agui-rx/tool-client`, with a reviewer's token). A tool result
   * `{ "pending_approval": "apr_…" }` (what its framework adapters return for
   * a tool that needs approval) then holds its call: its step waits, and a
   * decision card asks. So does an approval the tool server was asked for
   * under the run's id that the run's stream does not show, however late it
   * comes (the run's events are followed from its end: see `LateApprovals`;
   * the run's end never waits for them). Its answer goes to the tool server
   * (`decide`), whose answer becomes the call's result, and the agent goes
   * on in a run that carries it. See docs/approvals.md.
   */
  toolClient?: ToolServerApprovals;
  /**
   * With `toolClient`: how many runs' events are followed on the tool server
   * at once, for approvals their streams did not show (a browser allows a
   * page few connections to one host). Following a new run lets go of the
   * oldest, reported through `onWarning`. Default 3.
   */
  maxFollowedRuns?: number;
  /**
   * Shows the versions bar under the latest answer: "‹ 2 / 2 ›" once it was
   * asked again, and a Regenerate button (`regenerate`). Each answer then
   * ends with a `user_defined` item `{ kind: "versions", responseId }`,
   * which `renderAnswerVersions` (web component) or `createAnswerVersions`
   * (React) draws for the latest answer only. The versions are branches of
   * the thread's log: in memory, saved with `persistence`. Default `false`.
   */
  answerVersions?: boolean;
  /**
   * Lets the person edit a question they sent, as a branch of the thread
   * (`editQuestion`, `switchQuestion`): each answer's final response then
   * starts with a `user_defined` item `{ kind: "question", responseId }`,
   * which `renderAnswerVersions` (web component) or `createQuestionControl`
   * (React) draws as an Edit button and "‹ 1 / 2 ›" with the first response
   * under each question. Default `false`.
   */
  editQuestions?: boolean;
  /**
   * Carbon's thumbs up and down on each answer (`true`, or Carbon's feedback
   * options: categories, prompt, disclaimer…); Carbon 1.9.1 draws them under
   * the latest answer only unless its config sets `persistFeedback` (React's
   * `ChatContainer` takes it; the 1.9.1 web component does not). What the
   * person gives is kept in the thread's log (saved with `persistence`),
   * restored with the answer, and told to `onFeedback`. Default `false`.
   */
  feedback?: boolean | FeedbackOptions;
  /** Feedback given on an answer (see `feedback`). */
  onFeedback?: (feedback: AnswerFeedback) => void;
}

/** An AG-UI tool, with a `handler` when the browser runs it. */
export type FrontendTool = Tool & {
  handler?: (args: unknown, call: { toolCallId: string; name: string }) => unknown;
};

/** What the run of one turn adds to the pipeline options. */
export interface RunPipelineParts {
  stop: Observable<unknown>;
  requestId?: string;
  /** What Carbon's redraws cost, for the merge window. */
  renderCost: Observable<number>;
  /** Words for a failed turn (the adapter's `describeError`, watched by the error policy). */
  describeError: (error: unknown) => string | undefined;
}

/** The adapter's options, resolved once. */
export interface ResolvedOptions {
  run: RunAgent;
  handledTools: readonly FrontendTool[];
  /** The tool server whose approvals the chat decides, and its tools' input schemas. */
  toolClient: ToolServerApprovals | undefined;
  toolSchemas: ToolSchemas | undefined;
  /** Where the agent keeps its threads (the option, else the runner's). */
  threads: AgentThreads | undefined;
  /** The tools the person answers: declared without a handler. */
  askedTools: readonly Tool[];
  maxFrontendToolRounds: number;
  maxFollowedRuns: number;
  /** The host's scheduler, else animation frames in a browser (the async scheduler elsewhere): it paces everything of the adapter's, its conversations' `state$` too. */
  scheduler: SchedulerLike;
  /** The fields every run input carries as they are. */
  runFields: { tools: Tool[]; context: Context[]; forwardedProps: Record<string, unknown> };
  threadId: string | undefined;
  initialMessages: readonly Message[] | undefined;
  /** As given: a conversation starts from `{}` without one (see `Conversation`). */
  initialState: unknown;
  onStateChange: ((state: unknown) => void) | undefined;
  /** Where every error goes: the option, else the console (decided here once). */
  onError: (error: CarbonAgUiError) => void;
  /** Where every warning goes, the pipeline's and the adapter's own alike: the option, else the console (decided here once). */
  onWarning: (warning: CarbonAgUiError) => void;
  /** What a restored chat is checked and escaped with, as live answers are. */
  restoreOptions: RestoreOptions;
  rejectOnError: boolean;
  /** Whether the versions bar is shown (`answerVersions`). */
  answerVersions: boolean;
  onFeedback: ((feedback: AnswerFeedback) => void) | undefined;
  /** The words for a failed turn; undefined shows none. */
  describe: ((error: unknown) => string | undefined) | undefined;
  /** The `agUiToCarbon()` options of one run. */
  pipeline(parts: RunPipelineParts): AgUiToCarbonOptions;
  /** What a thread's log is replayed with (a restored chat, a branch switched to): the stages as a live run has them. */
  replay: ReplayOptions;
}

export function resolveOptions(options: CarbonAgUiAdapterOptions): ResolvedOptions {
  const { run, tools = [], maxFrontendToolRounds = 5, maxFollowedRuns = 3, context = [], forwardedProps = {}, scheduler = frameScheduler(), coalesce = true, rejectOnError = false } = options;
  const onWarning = options.onWarning ?? warnOnConsole;
  const onError = options.onError ?? errorOnConsole;
  const passedOn = { ...pick(options, PASSED_ON), onWarning };
  const ownCoalesce = coalesce === true || coalesce === false ? {} : coalesce;
  // Calls of the tools the run was given are handed to the browser when the run ends without their results.
  const clientTools = tools.map((tool) => tool.name);
  const sent = tools.map(({ handler: _handler, ...tool }) => tool);
  const toolSchemas = options.toolClient && new ToolSchemas(options.toolClient, (error) => onWarning(asCarbonAgUiError(error)));
  const askedTools = sent.filter((_tool, at) => !tools[at]!.handler);
  const threads = options.threads === false ? undefined : (options.threads ?? run.threads);
  // Versions are branches of the thread's log, which the adapter keeps with or without storage.
  const answerVersions = options.answerVersions === true;
  const finishAnswer = answerItems(options.feedback, answerVersions, options.editQuestions === true);
  const pipeline = ({ stop, requestId, renderCost, describeError: describe }: RunPipelineParts): AgUiToCarbonOptions => ({
    ...passedOn,
    stop,
    ...(requestId !== undefined && { requestId }),
    // Deltas merge at the adapter's pace unless `coalesce` names a scheduler of its own, in windows that follow Carbon's render cost.
    coalesce: coalesce === false ? false : { ...ownCoalesce, scheduler: ownCoalesce.scheduler ?? scheduler, renderCost: ownCoalesce.renderCost ?? renderCost },
    clientTools,
    askedTools,
    ...(toolSchemas && { approvals: { inputSchemas: toolSchemas.byName } }),
    describeError: describe,
    ...(finishAnswer && { finishAnswer }),
  });
  const restoreOptions = { ...itemOptionsOf(options), ...(options.html !== undefined && { html: options.html }) };
  return {
    run,
    handledTools: tools.filter((tool) => tool.handler),
    askedTools,
    toolClient: options.toolClient,
    toolSchemas,
    threads,
    answerVersions,
    onFeedback: options.onFeedback,
    maxFrontendToolRounds,
    maxFollowedRuns,
    scheduler,
    runFields: { tools: sent, context, forwardedProps },
    threadId: options.threadId,
    initialMessages: options.initialMessages,
    initialState: options.initialState,
    onStateChange: options.onStateChange,
    onError,
    onWarning,
    restoreOptions,
    rejectOnError,
    describe: describerOf(options.describeError),
    pipeline,
    // Nothing a replay times or reports: its stages are those of a live run, the words for a failure the ones shown (see replayRun).
    replay: { pipeline: pipeline({ stop: NEVER, renderCost: NEVER, describeError: describerOf(options.describeError) ?? (() => undefined) }), scheduler, ...(options.initialState !== undefined && { initialState: options.initialState }), restore: restoreOptions },
  };
}

/** The options among `keys` that are set. */
function pick<T extends object, K extends keyof T>(options: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (options[key] !== undefined) picked[key] = options[key];
  return picked;
}
