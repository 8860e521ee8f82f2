/**
 * The browser demo: Carbon AI Chat's web component, driven by an AG-UI agent
 * through carbon-agui-rx. No React code of our own; Carbon mounts its own.
 */
import "@carbon/ai-chat/dist/es/web-components/cds-aichat-custom-element/index.js";
import { CarbonAgUiAdapter, createSseRunner, renderDecisionCards, type CarbonChatInstance, type CarbonEventBus } from "carbon-agui-rx";

declare global {
  interface Window {
    /** The AG-UI endpoint, written into the page by the demo server. */
    AGUI_URL: string;
    /** For the end-to-end tests: the adapter of this page, and Carbon's instance. */
    adapter: CarbonAgUiAdapter;
    chatInstance: CarbonEventBus & CarbonChatInstance;
  }
}

const adapter = new CarbonAgUiAdapter({
  run: createSseRunner({ url: window.AGUI_URL }),
  // `?coalesce=off` sends one chunk per delta, for the browser bench to compare.
  coalesce: new URLSearchParams(location.search).get("coalesce") !== "off",
  // `?html=on` lets the agent's HTML through raw (`html: true`): the browser security test's control, showing its payloads do run then.
  html: new URLSearchParams(location.search).get("html") === "on",
  // The demo agent asks for details by leaving { phase: "needs_detail", ask } in its state.
  detectClarification: (state) => {
    const { phase, ask } = (state ?? {}) as { phase?: string; ask?: string };
    return phase === "needs_detail" ? { ...(ask !== undefined && { question: ask }) } : false;
  },
});
window.adapter = adapter;

// A side panel with the agent's shared state, as it changes.
const statePanel = document.createElement("pre");
statePanel.className = "state";
statePanel.setAttribute("aria-label", "Shared state");
adapter.state$.subscribe((state) => (statePanel.textContent = JSON.stringify(state, null, 2)));
document.body.append(statePanel);

const chat = document.createElement("cds-aichat-custom-element") as HTMLElement & Record<string, unknown>;
chat.className = "chat";
chat.messaging = { customSendMessage: adapter.sendMessage, skipWelcome: true };
chat.openChatByDefault = true;
chat.launcher = { isOn: false };
chat.onBeforeRender = (instance: CarbonEventBus & CarbonChatInstance) => {
  window.chatInstance = instance;
  renderDecisionCards({ instance, host: chat, adapter });
  // Carbon only tells an in-flight message about a restart; a restart between messages must reset the thread too.
  instance.on({ type: "restartConversation", handler: () => adapter.reset() });
};
document.body.append(chat);
