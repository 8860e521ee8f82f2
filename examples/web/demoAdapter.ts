import { CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";

/** The adapter both demo pages use: the page's agent, merging per `?coalesce=`, and the demo agent's way of asking for details. */
export function demoAdapter(): CarbonAgUiAdapter {
  const params = new URLSearchParams(location.search);
  return new CarbonAgUiAdapter({
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
  });
}

declare global {
  interface Window {
    /** The AG-UI endpoint, written into the page by the demo server. */
    AGUI_URL: string;
    /** For the end-to-end tests: the adapter of this page. */
    adapter: CarbonAgUiAdapter;
  }
}
