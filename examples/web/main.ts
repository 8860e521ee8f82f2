/**
 * The browser demo: Carbon AI Chat's web component, driven by an AG-UI agent
 * through carbon-agui-rx. No React code of our own; Carbon mounts its own.
 */
import "@carbon/ai-chat/dist/es/web-components/cds-aichat-custom-element/index.js";
import { renderDecisionCards, type CarbonChatInstance, type CarbonEventBus } from "carbon-agui-rx";
import { demoAdapter } from "./demoAdapter";

declare global {
  interface Window {
    /** For the end-to-end tests: Carbon's instance. */
    chatInstance: CarbonEventBus & CarbonChatInstance;
  }
}

const adapter = demoAdapter();
window.adapter = adapter;

// A side panel with the agent's shared state, as it changes.
const stateSection = document.createElement("section");
stateSection.className = "state-panel";
stateSection.setAttribute("aria-labelledby", "state-heading");
const stateHeading = document.createElement("h2");
stateHeading.id = "state-heading";
stateHeading.textContent = "Agent's shared state";
const statePanel = document.createElement("pre");
statePanel.className = "state";
adapter.state$.subscribe((state) => (statePanel.textContent = JSON.stringify(state, null, 2)));
stateSection.append(stateHeading, statePanel);
document.body.append(stateSection);

const chat = document.createElement("cds-aichat-custom-element") as HTMLElement & Record<string, unknown>;
chat.className = "chat";
chat.messaging = { customSendMessage: adapter.sendMessage, skipWelcome: true };
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
    buttons: ["What's the weather in Oslo?", "Please delete my old files", "E-mail ops that the deploy finished", "Book a table"].map((label) => ({ label })),
  },
};
chat.openChatByDefault = true;
chat.launcher = { isOn: false };
chat.onBeforeRender = (instance: CarbonEventBus & CarbonChatInstance) => {
  window.chatInstance = instance;
  // The adapter follows Carbon's stop button and restart by itself (through this instance's event bus).
  renderDecisionCards({ instance, host: chat, adapter });
};
document.body.append(chat);
