import { AgUiThreadSavedElsewhereError, CarbonAgUiAdapter, createSseRunner, indexedDbStore } from "carbon-agui-rx";
import { ToolClient } from "carbon-agui-rx/tool-client";

/**
 * The approvals demo's adapter, in place of the demo pages' own (`examples/web/demoAdapter.ts`; the bundle of
 * approvalsDemo.ts swaps it in): the page's agent, and a `ToolClient` to the reference tool server with the
 * reviewer's token, so a tool call that waits for approval becomes a decision card here and its answer goes to the
 * tool server's `decide`. Conversations are kept in IndexedDB unless `?persist=off`, as on the demo pages.
 *
 * The token is in the page only because this is a demo against the reference server's fixed principals: a real
 * reviewer's token comes from the reviewer's own sign-in (`token: () => …`), never from the agent's server.
 */
export function demoAdapter(notify: (text: string) => void = () => undefined): CarbonAgUiAdapter {
  const params = new URLSearchParams(location.search);
  const threadId = params.get("thread");
  const adapter = new CarbonAgUiAdapter({
    run: createSseRunner({ url: window.AGUI_URL }),
    toolClient: new ToolClient({ baseUrl: window.TOOL_SERVER_URL, token: "reviewer-token" }),
    ...(threadId && { threadId }),
    ...(params.get("persist") !== "off" && { persistence: { store: indexedDbStore() } }),
    // Storage problems, and a decision the tool server refused (a 403, a 404, the server down): the card re-arms.
    onError: (error) => notify(error.message),
    onWarning: (warning) => {
      if (warning instanceof AgUiThreadSavedElsewhereError) notify("This conversation changed in another tab. What you send here replaces that; reload to see the other tab's version.");
      else console.warn(`carbon-agui-rx: ${warning.message}`);
    },
  });
  adapter.threadId$.subscribe((current) => {
    const url = new URL(location.href);
    url.searchParams.set("thread", current);
    history.replaceState(history.state, "", url);
  });
  return adapter;
}

declare global {
  interface Window {
    /** The reference tool server, written into the page by approvalsDemo.ts. */
    TOOL_SERVER_URL: string;
  }
}
