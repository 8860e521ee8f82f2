import {
  AgUiSnapshotError,
  AgUiStoreError,
  AgUiThreadSavedElsewhereError,
  AgUiThreadServerError,
  CarbonAgUiAdapter,
  connectThreads,
  createSseRunner,
  httpConnect,
  indexedDbStore,
  type AgentThreads,
  type CarbonAgUiAdapterOptions,
  type RunAgent,
  type ThreadServerProblem,
} from "carbon-agui-rx";
import { merge } from "rxjs";
import { httpThreads, stoppingRuns } from "./httpThreads";
import { SCHEDULE_MEETING } from "./meetingTool";

const SERVER_TROUBLE: Record<AgUiThreadServerError["operation"], string> = {
  load: "This conversation could not be opened from the agent's server",
  list: "The conversations could not be listed from the agent's server",
  remove: "The conversation could not be deleted on the agent's server",
  rejoin: "The answer still going on the agent's server could not be followed",
  branch: "The answer's versions could not be changed on the agent's server",
};
const WHY: Record<ThreadServerProblem, string> = {
  unreachable: "it did not answer",
  "not-found": "it has no such conversation",
  forbidden: "you may not open it",
  unreadable: "what it sent could not be read",
  failed: "it failed",
};

/**
 * Where the page's agent keeps its threads, as the demo server says in `AGUI_THREADS`: "connect" for CopilotKit's
 * runtime (its connect route beside the run route `<base>/agent/<agentId>/run`), "http" for the demo's own thread API
 * (examples/frameworks/serveAgent.ts, beside its run route `<url>`), none otherwise (the conversations live in this
 * browser's IndexedDB only). Both servers keep a run going when the page goes away, so Carbon's stop button asks them to
 * stop it (`stoppingRuns`), and a reload rejoins it.
 */
function agentSource(url: string, threads: Window["AGUI_THREADS"]): { run: RunAgent; threads?: AgentThreads } {
  const run = createSseRunner({ url });
  if (threads === "connect") {
    const stop = (threadId: string) => url.replace(/\/run$/, `/stop/${encodeURIComponent(threadId)}`);
    return { run: stoppingRuns(run, stop), threads: connectThreads(httpConnect({ url: url.replace(/\/run$/, "/connect") })) };
  }
  if (threads === "http") return { run: stoppingRuns(run, (threadId) => `${url}/stop/${encodeURIComponent(threadId)}`), threads: httpThreads({ url }) };
  return { run };
}

/**
 * The adapter both demo pages use: the page's agent, merging per `?coalesce=`, the demo agent's way of asking for
 * details, a tool the person answers (`schedule_meeting`), and conversations kept in IndexedDB (unless
 * `?persist=off`) under the thread id in the page's URL (`?thread=`), which follows the adapter's thread. `notify` shows what the person should know about storage;
 * `extra` adds options of another demo's (the approvals demo's tool client). Where the agent keeps its threads
 * (`AGUI_THREADS`, see `agentSource`), a thread is restored from the agent's server, IndexedDB its cache.
 */
export function demoAdapter(notify: (text: string) => void = () => undefined, extra: Partial<CarbonAgUiAdapterOptions> = {}): CarbonAgUiAdapter {
  const params = new URLSearchParams(location.search);
  const threadId = params.get("thread");
  // What the agent's server could not do, each said once in the notice (a failed load and a failed list at once: both).
  const troubles: string[] = [];
  const serverTrouble = (error: AgUiThreadServerError) => {
    const line = `${SERVER_TROUBLE[error.operation]}: ${WHY[error.problem]}${error.status === undefined ? "" : ` (HTTP ${error.status})`}.`;
    console.warn(`carbon-agui-rx: ${error.message}`);
    if (troubles.includes(line)) return;
    troubles.push(line);
    notify(troubles.join(" "));
  };
  const adapter = new CarbonAgUiAdapter({
    ...agentSource(window.AGUI_URL, window.AGUI_THREADS),
    // `?coalesce=off` sends one chunk per delta, `?maxWindow=100` caps the adaptive merge window: for the browser bench to compare.
    coalesce: params.get("coalesce") !== "off" && (params.has("maxWindow") ? { maxIntervalMs: Number(params.get("maxWindow")) } : true),
    // `?html=on` lets the agent's HTML through raw (`html: true`): the browser security test's control, showing its payloads do run then.
    html: params.get("html") === "on",
    // The demo agent asks for details by leaving { phase: "needs_detail", ask } in its state.
    detectClarification: (state) => {
      const { phase, ask } = (state ?? {}) as { phase?: string; ask?: string };
      return phase === "needs_detail" ? { ...(ask !== undefined && { question: ask }) } : false;
    },
    // Declared without a handler: a call of it is the person's to answer, on a decision card checked against its schema.
    tools: [SCHEDULE_MEETING],
    // The tokens a run reports, as a quiet line under its answer (the supervisor's "Why are there tides?" reports some).
    showUsage: true,
    // The versions bar under the latest answer (Regenerate, "‹ 2 / 2 ›"), the Edit control under each question, and
    // Carbon's thumbs on each answer.
    answerVersions: true,
    editQuestions: true,
    feedback: { categories: { negative: ["Inaccurate", "Incomplete", "Off topic"] } },
    onFeedback: (feedback) => console.info(`carbon-agui-rx demo: ${feedback.isPositive ? "👍" : "👎"} on run ${feedback.runId ?? "?"}`),
    ...(threadId && { threadId }),
    ...(params.get("persist") !== "off" && { persistence: { store: indexedDbStore() } }),
    onError: (error) => {
      if (error instanceof AgUiStoreError || error instanceof AgUiSnapshotError) notify(error.message);
      // The agent's server could not give, list or delete a thread (unreachable, not found, forbidden, unreadable).
      else if (error instanceof AgUiThreadServerError) serverTrouble(error);
    },
    onWarning: (warning) => {
      if (warning instanceof AgUiThreadSavedElsewhereError) notify("This conversation changed in another tab. What you send here replaces that; reload to see the other tab's version.");
      else console.warn(`carbon-agui-rx: ${warning.message}`);
    },
    ...extra,
  });
  // The thread in the URL: a reload comes back to it, Carbon's restart moves the URL to the new thread.
  // With the agent's server keeping the threads, only once the thread has a message: a thread id in the URL is one to
  // ask the server for, and a freshly minted one, reloaded before anything was said, is on no server ("not found"). So
  // a new thread leaves the URL without `?thread=` until its first message, and a reload before it starts afresh.
  // Without server threads, a minted id names nothing stored either, and restores nothing: the URL takes it at once.
  const serverThreads = window.AGUI_THREADS !== undefined;
  // Read from the adapter on either change: its thread and messages are then those of the same conversation.
  merge(adapter.threadId$, adapter.messages$).subscribe(() => {
    const { threadId: current, messages } = adapter;
    const url = new URL(location.href);
    if (!serverThreads || messages.length > 0) url.searchParams.set("thread", current);
    // Still restoring the URL's thread (no messages yet): it stays; a new one, not said anything yet, leaves the URL.
    else if (url.searchParams.get("thread") !== current) url.searchParams.delete("thread");
    else return;
    if (url.href !== location.href) history.replaceState(history.state, "", url);
  });
  return adapter;
}

declare global {
  interface Window {
    /** The AG-UI endpoint, written into the page by the demo server. */
    AGUI_URL: string;
    /** Where the agent keeps its threads, written in by the demo server: CopilotKit's connect route, the demo's own thread API, or none. */
    AGUI_THREADS?: "connect" | "http";
    /** The MCP Apps sandbox proxy, on another origin than the page's, written in by the demo server (npm run demo:mcp-apps). */
    MCP_SANDBOX_URL?: string;
    /** For the end-to-end tests: the adapter of this page. */
    adapter: CarbonAgUiAdapter;
  }
}
