/**
 * The demo page in React: Carbon AI Chat's `ChatContainer`, driven by the same
 * adapter, with the decision and clarification cards, A2UI surfaces, MCP Apps, the versions bar and the question control rendered through
 * `renderUserDefinedResponse` — the library builds their DOM, React
 * only mounts it.
 */
import { ChatContainer, type ChatInstance } from "@carbon/ai-chat";
import { useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import {
  createAnswerVersions,
  createClarificationCard,
  createDecisionCard,
  createQuestionControl,
  type A2uiSurfaceData,
  type McpAppData,
  type AnswerVersionsData,
  type ClarificationData,
  type InterruptDecisionData,
  type QuestionControlData,
} from "carbon-agui-rx";
import { createA2uiSurface } from "carbon-agui-rx/a2ui";
import { createMcpApp } from "carbon-agui-rx/mcp-apps";
import "./a2uiComponents";
import { demoAdapter } from "./demoAdapter";

const adapter = demoAdapter();
window.adapter = adapter;

type HostDrawn = InterruptDecisionData | ClarificationData | A2uiSurfaceData | McpAppData | AnswerVersionsData | QuestionControlData;

/** Mounts one of the library's cards, an A2UI surface or an MCP App, and lets go of it when React unmounts it. */
function Card({ data, instance }: { data: HostDrawn; instance: ChatInstance }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const card =
      data.kind === "interrupt"
        ? createDecisionCard(document, data, { instance, adapter })
        : data.kind === "a2ui"
          ? createA2uiSurface(document, data, { instance, adapter })
          : data.kind === "mcp-app"
            ? createMcpApp(document, data, { instance, adapter, sandboxUrl: window.MCP_SANDBOX_URL })
            : data.kind === "versions"
              ? createAnswerVersions(document, data, { instance, adapter })
              : data.kind === "question"
                ? createQuestionControl(document, data, { instance, adapter })
                : createClarificationCard(document, data);
    host.current?.append(card.element);
    return card.dispose;
  }, [data, instance]);
  return <div ref={host} />;
}

function App() {
  return (
    <ChatContainer
      messaging={{ customSendMessage: adapter.sendMessage, customLoadHistory: adapter.loadHistory, skipWelcome: true }}
      assistantName="Demo agent"
      // Carbon's thumbs on every answer: Carbon 1.9.1 keeps them on the latest only, unless told to keep them (its web
      // component does not take the option: the web page's thumbs follow the latest answer).
      persistFeedback
      openChatByDefault
      renderUserDefinedResponse={(state, instance) => {
        const data = state.messageItem?.user_defined as HostDrawn | undefined;
        return data && ["interrupt", "clarification", "a2ui", "mcp-app", "versions", "question"].includes(data.kind) ? <Card data={data} instance={instance} /> : null;
      }}
    />
  );
}

createRoot(document.getElementById("root")!).render(<App />);
