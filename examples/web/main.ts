/**
 * The browser demo: Carbon AI Chat's web component, driven by an AG-UI agent
 * through carbon-agui-rx. No React code of our own; Carbon mounts its own.
 */
import "@carbon/ai-chat/dist/es/web-components/cds-aichat-custom-element/index.js";
import { renderAnswerVersions, renderDecisionCards, type CarbonEditInstance, type CarbonEventBus, type CarbonThreadInstance } from "carbon-agui-rx";
import { renderA2uiSurfaces } from "carbon-agui-rx/a2ui";
import { renderMcpApps } from "carbon-agui-rx/mcp-apps";
import "./a2uiComponents";
import { demoAdapter } from "./demoAdapter";
import { sidePanel, threadsPanel } from "./threadsPanel";

declare global {
  interface Window {
    /** For the end-to-end tests: Carbon's instance. */
    chatInstance: CarbonEventBus & CarbonThreadInstance;
  }
}

// What the person should know about storage (a full quota, a conversation that could not be restored, another tab).
const notice = document.createElement("p");
notice.className = "notice";
notice.setAttribute("role", "status");
notice.hidden = true;
const adapter = demoAdapter((text) => {
  notice.textContent = text;
  notice.hidden = false;
});
window.adapter = adapter;

// A side panel with the agent's shared state, as it changes.
const stateSection = sidePanel("state", "Agent's shared state");
const statePanel = document.createElement("pre");
statePanel.className = "state";
adapter.state$.subscribe((state) => (statePanel.textContent = JSON.stringify(state, null, 2)));
stateSection.append(statePanel);
const side = document.createElement("aside");
side.className = "side";
side.append(notice, ...(new URLSearchParams(location.search).get("persist") === "off" ? [] : [threadsPanel(adapter, () => window.chatInstance, showMessages)]), stateSection);
document.body.append(side);

const chat = document.createElement("cds-aichat-custom-element") as HTMLElement & Record<string, unknown>;
chat.className = "chat";
// The stored conversation of the thread in the URL, restored as it was (cards still answerable).
chat.messaging = { customSendMessage: adapter.sendMessage, customLoadHistory: adapter.loadHistory, skipWelcome: true };
chat.assistantName = "Demo agent";
// Carbon's own "Restart conversation" button in the header: the adapter starts a new thread on it, even mid-answer.
chat.header = { showRestartButton: true };
// `?theme=g100` (or white, g10, g90): Carbon's theme tokens, which the decision cards follow too.
const theme = new URLSearchParams(location.search).get("theme");
if (theme) chat.injectCarbonTheme = theme;
// Carbon's home screen: a greeting and starter prompts, one per thing the scripted agent can show.
chat.homescreen = {
  isOn: true,
  greeting: "Hi! I'm a scripted AG-UI agent. Try one of these, or ask me for a story, a long answer, or to fail.",
  starters: {
    isOn: true,
    buttons: ["What's the weather in Oslo?", "Please delete my old files", "E-mail ops that the deploy finished", "Book a table", "Book a meeting with Ana tomorrow at 10"].map((label) => ({ label })),
  },
};
/**
 * Closes Carbon's home screen over the messages: Carbon 1.9.1 has no call for it, but turning the home screen off
 * closes it, and turning it back on (with messages in the chat) leaves it closed, one task later.
 */
function showMessages() {
  const homescreen = chat.homescreen;
  chat.homescreen = { ...(homescreen as object), isOn: false };
  setTimeout(() => (chat.homescreen = homescreen), 0);
}
chat.openChatByDefault = true;
chat.launcher = { isOn: false };
chat.onBeforeRender = (instance: CarbonEventBus & CarbonThreadInstance & CarbonEditInstance) => {
  window.chatInstance = instance;
  // The adapter follows Carbon's stop button and restart by itself (through this instance's event bus).
  renderDecisionCards({ instance, host: chat, adapter });
  // `?surfaces=off` draws neither of the two below: the same turns, their items left out (what bench:browser weighs an item against).
  if (new URLSearchParams(location.search).get("surfaces") !== "off") {
    // A2UI surfaces the agent paints (npm run demo:a2ui), drawn with Carbon's components; their buttons answer the agent.
    renderA2uiSurfaces({ instance, host: chat, adapter });
    // MCP Apps the agent's tools bring (npm run demo:mcp-apps), each run in the sandbox proxy the demo serves on a second origin.
    renderMcpApps({ instance, host: chat, adapter, sandboxUrl: window.MCP_SANDBOX_URL });
  }
  // The versions bar under the latest answer (ask again, go back and forth between the answers), and the control under
  // each question (edit it, go back and forth between its versions).
  renderAnswerVersions({ instance, host: chat, adapter });
};
document.body.append(chat);
