/**
 * The demo page in React: Carbon AI Chat's `ChatContainer`, driven by the same
 * adapter, with the decision and clarification cards rendered through
 * `renderUserDefinedResponse` — the library builds each card's DOM, React
 * only mounts it.
 */
import { ChatContainer, type ChatInstance } from "@carbon/ai-chat";
import { useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { createClarificationCard, createDecisionCard, type ClarificationData, type InterruptDecisionData } from "carbon-agui-rx";
import { demoAdapter } from "./demoAdapter";

const adapter = demoAdapter();
window.adapter = adapter;

/** Mounts one of the library's cards and lets go of it when React unmounts it. */
function Card({ data, instance }: { data: InterruptDecisionData | ClarificationData; instance: ChatInstance }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const card = data.kind === "interrupt" ? createDecisionCard(document, data, { instance, adapter }) : createClarificationCard(document, data);
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
      openChatByDefault
      renderUserDefinedResponse={(state, instance) => {
        const data = state.messageItem?.user_defined as InterruptDecisionData | ClarificationData | undefined;
        return data?.kind === "interrupt" || data?.kind === "clarification" ? <Card data={data} instance={instance} /> : null;
      }}
    />
  );
}

createRoot(document.getElementById("root")!).render(<App />);
