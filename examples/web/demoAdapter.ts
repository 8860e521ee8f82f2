import { AgUiSnapshotError, AgUiStoreError, AgUiThreadSavedElsewhereError, CarbonAgUiAdapter, createSseRunner, indexedDbStore, type CarbonAgUiAdapterOptions } from "carbon-agui-rx";
import { SCHEDULE_MEETING } from "./meetingTool";

/**
 * The adapter both demo pages use: the page's agent, merging per `?coalesce=`, the demo agent's way of asking for
 * details, a tool the person answers (`schedule_meeting`), and conversations kept in IndexedDB (unless
 * `?persist=off`) under the thread id in the page's URL (`?thread=`), which follows the adapter's thread. `notify` shows what the person should know about storage;
 * `extra` adds options of another demo's (the approvals demo's tool client).
 */
export function demoAdapter(notify: (text: string) => void = () => undefined, extra: Partial<CarbonAgUiAdapterOptions> = {}): CarbonAgUiAdapter {
  const params = new URLSearchParams(location.search);
  const threadId = params.get("thread");
  const adapter = new CarbonAgUiAdapter({
    run: createSseRunner({ url: window.AGUI_URL }),
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
    ...(threadId && { threadId }),
    ...(params.get("persist") !== "off" && { persistence: { store: indexedDbStore() } }),
    onError: (error) => {
      if (error instanceof AgUiStoreError || error instanceof AgUiSnapshotError) notify(error.message);
    },
    onWarning: (warning) => {
      if (warning instanceof AgUiThreadSavedElsewhereError) notify("This conversation changed in another tab. What you send here replaces that; reload to see the other tab's version.");
      else console.warn(`carbon-agui-rx: ${warning.message}`);
    },
    ...extra,
  });
  // The thread in the URL: a reload comes back to it, Carbon's restart moves the URL to the new thread.
  adapter.threadId$.subscribe((current) => {
    const url = new URL(location.href);
    url.searchParams.set("thread", current);
    history.replaceState(history.state, "", url);
  });
  return adapter;
}

declare global {
  interface Window {
    /** The AG-UI endpoint, written into the page by the demo server. */
    AGUI_URL: string;
    /** For the end-to-end tests: the adapter of this page. */
    adapter: CarbonAgUiAdapter;
  }
}
