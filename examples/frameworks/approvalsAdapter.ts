import type { CarbonAgUiAdapter } from "carbon-agui-rx";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { demoAdapter as demoPagesAdapter } from "../web/demoAdapter";

/**
 * The approvals demo's adapter, in place of the demo pages' own (`examples/web/demoAdapter.ts`; the bundle of
 * approvalsDemo.ts swaps it in): the page's agent, and a `ToolClient` to the reference tool server with the
 * reviewer's token, so a tool call that waits for approval becomes a decision card here and its answer goes to the
 * tool server's `decide`. Everything else is the demo pages' own adapter.
 *
 * The token is in the page only because this is a demo against the reference server's fixed principals: a real
 * reviewer's token comes from the reviewer's own sign-in (`token: () => …`), never from the agent's server.
 */
export function demoAdapter(notify: (text: string) => void = () => undefined): CarbonAgUiAdapter {
  return demoPagesAdapter(notify, {
    toolClient: new ToolClient({ baseUrl: window.TOOL_SERVER_URL, token: "reviewer-token" }),
    // Storage problems, and a decision the tool server refused (a 403, a 404, the server down): the card re-arms.
    onError: (error) => notify(error.message),
  });
}

declare global {
  interface Window {
    /** The reference tool server, written into the page by approvalsDemo.ts. */
    TOOL_SERVER_URL: string;
  }
}
