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
    /** For the end-to-end tests: the adapter of this page. */
    adapter: CarbonAgUiAdapter;
  }
}

const adapter = new CarbonAgUiAdapter({ run: createSseRunner({ url: window.AGUI_URL }) });
window.adapter = adapter;

const chat = document.createElement("cds-aichat-custom-element") as HTMLElement & Record<string, unknown>;
chat.className = "chat";
chat.messaging = { customSendMessage: adapter.sendMessage, skipWelcome: true };
chat.openChatByDefault = true;
chat.launcher = { isOn: false };
chat.onBeforeRender = (instance: CarbonEventBus & CarbonChatInstance) => {
  renderDecisionCards({ instance, host: chat, adapter });
  // Carbon only tells an in-flight message about a restart; a restart between messages must reset the thread too.
  instance.on({ type: "restartConversation", handler: () => adapter.reset() });
};
document.body.append(chat);
