import type { AgentServer, SseResponse } from "carbon-agui-rx/testing";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../src/adapter";
import type { CarbonItem, CarbonStreamChunk } from "../src/carbon";
import { createSseRunner } from "../src/runners/createSseRunner";
import { startEncodedAgentServer } from "./support/agentServer";
import { ev } from "./support/builders";

const html = `<img src=x onerror="alert(1)">`;
const unsafeButton: CarbonItem = { response_type: "button", button_type: "url", label: "Open", url: "javascript:alert(1)" };

/** An agent that says `html` in two deltas that split the tag, then asks for a button with a javascript: URL. */
const answer = (sse: SseResponse) => {
  sse.send(ev.runStarted());
  sse.send(ev.textStart("a1"));
  sse.send(ev.text("a1", html.slice(0, 7)));
  sse.send(ev.text("a1", html.slice(7)));
  sse.send(ev.textEnd("a1"));
  sse.send(ev.carbonItem(unsafeButton));
  sse.send(ev.runFinished());
  sse.end();
};

const finalItems = (carbon: CarbonRecorder) =>
  carbon.chunks.flatMap((chunk: CarbonStreamChunk) => ("final_response" in chunk ? chunk.final_response.output.generic : []));

describe("the adapter's defaults against an agent's HTML and unsafe item URLs (over HTTP)", () => {
  let server: AgentServer;
  beforeEach(async () => {
    server = await startEncodedAgentServer((_input, sse) => answer(sse));
  });
  afterEach(() => server.close());

  const send = async (adapter: CarbonAgUiAdapter) => {
    const carbon = new CarbonRecorder();
    carbon.userSays("Hi");
    await adapter.sendMessage({ id: "u1", input: { text: "Hi" }, history: {} }, { signal: new AbortController().signal }, carbon);
    return carbon;
  };

  it("shows the HTML as text and refuses the item, keeping what the agent said in the history", async () => {
    const refused: string[][] = [];
    const adapter = new CarbonAgUiAdapter({ run: createSseRunner({ url: server.url }), onInvalidItem: (_item, error) => void refused.push(error.problems) });
    const carbon = await send(adapter);
    expect(finalItems(carbon)).toEqual([expect.objectContaining({ response_type: "text", text: `&lt;img src=x onerror="alert(1)">` })]);
    expect(refused).toEqual([["item.url: javascript: URLs are not allowed (only https:)"]]);
    expect(adapter.messages.at(-1)).toMatchObject({ role: "assistant", content: html });
  });

  it("passes html and allowUrl through to the pipeline, for apps that trust their agent", async () => {
    const adapter = new CarbonAgUiAdapter({ run: createSseRunner({ url: server.url }), html: true, allowUrl: () => true });
    const carbon = await send(adapter);
    expect(finalItems(carbon)).toEqual([expect.objectContaining({ response_type: "text", text: html }), expect.objectContaining(unsafeButton)]);
  });
});
