import { CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";
import { CarbonRecorder, startAgentServer, startToolServer, type AgentServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { memoryStore } from "../../src/persistence/memoryStore";
import { scriptedAgentWithTools } from "../../examples/scripted-conversation";
import { demoReply } from "../../examples/frameworks/serve";

/** The demo's agent (`npm run demo`), behind a real SSE endpoint, with its tool server; one chat per test. */
let agent: AgentServer;
let tools: ToolServer;
let adapter: CarbonAgUiAdapter;
let carbon: CarbonRecorder;
beforeEach(async () => {
  tools = await startToolServer();
  agent = await startAgentServer(scriptedAgentWithTools(new ToolClient({ baseUrl: tools.url, token: "alice-token" })));
  adapter = new CarbonAgUiAdapter({
    run: createSseRunner({ url: agent.url }),
    // As the demo page has it (examples/web/demoAdapter.ts).
    detectClarification: (state) => ((state as { phase?: string } | undefined)?.phase === "needs_detail" ? { question: (state as { ask: string }).ask } : false),
  });
  carbon = new CarbonRecorder();
});
afterEach(async () => {
  // Its adapter stops following the tool server's runs before the servers close.
  adapter.dispose();
  await agent.close();
  await tools.close();
});

/** Sends `text` and returns what the chat shows in answer (the transcript after it). */
async function ask(text: string): Promise<string> {
  carbon.userSays(text);
  await adapter.sendMessage({ id: `user-${carbon.chunks.length}`, input: { text } } as never, { signal: new AbortController().signal } as never, carbon);
  const transcript = carbon.transcript();
  return transcript.slice(transcript.lastIndexOf(`You: ${text}`) + `You: ${text}`.length).trim();
}

/** The arguments of the demo agent's last call of `tool`, as the history holds them. */
const lastCallOf = (tool: string) =>
  JSON.parse(
    adapter.messages
      .flatMap((message) => ("toolCalls" in message ? (message.toolCalls ?? []) : []))
      .filter((call) => call.function.name === tool)
      .at(-1)?.function.arguments ?? "null",
  ) as unknown;

describe("the demo agent answers the question it was asked (issue 26)", () => {
  it("gives the weather of the city named, and tomorrow's for the same city", async () => {
    const paris = await ask("What's the weather in Paris?");
    expect(paris).toContain("[card: Paris: ");
    expect(paris).not.toContain("Oslo");
    expect(lastCallOf("get_forecast")).toEqual({ city: "Paris", day: "today" });
    expect(adapter.state).toMatchObject({ lastCity: "Paris" });
    expect(await ask("And tomorrow?")).toContain("[card: Paris tomorrow: ");
    expect(await ask("weather in new york")).toContain("[card: New York: ");
    expect(await ask("What's the weather in Oslo?")).toContain("[card: Oslo: 4 °C, sleet");
  });

  it("says plainly which cities it knows when it has no forecast for the one named, or none was named", async () => {
    expect(await ask("What's the weather in Reykjavik?")).toBe("Assistant: I'm a scripted demo agent with made-up forecasts for Oslo, Paris, London, New York and Tokyo only, not Reykjavik.");
    expect(await ask("What's the weather like?")).toBe("Assistant: Which city? I'm a scripted demo agent with made-up forecasts for Oslo, Paris, London, New York and Tokyo.");
  });

  it("asks to delete the files named, and reports those deleted", async () => {
    expect(await ask("Please delete report.pdf and notes-2.txt")).toContain("[decision card: Delete these 2 files?]");
    expect(lastCallOf("delete_files")).toEqual({ paths: ["report.pdf", "notes-2.txt"] });
    await adapter.respondToInterrupt({ type: "approve" });
    expect(carbon.transcript()).toContain("Done: deleted `report.pdf`, `notes-2.txt`.");
  });

  it("e-mails the address named, about what was said", async () => {
    expect(await ask("E-mail alice@example.com that the build is green")).toContain("[decision card: The tool server needs your approval to send this e-mail.]");
    expect(lastCallOf("send_email")).toEqual({ to: "alice@example.com", subject: "The build is green" });
  });

  it("books what was asked for, for the date given in answer to its question", async () => {
    expect(await ask("Book a table")).toContain("[clarification: Which date should I book?]");
    expect(await ask("Friday at 7")).toBe("Assistant: Booked: a table, Friday at 7.");
  });

  it("says what it can do when it has no answer, instead of talking about itself", async () => {
    const answer = await ask("What is 2 + 2?");
    expect(answer).toMatch(/^Assistant: I'm a \*\*scripted AG-UI agent\*\*, so I cannot answer that\. Ask me /);
    expect(answer).toContain("the weather in a city");
    expect(await ask("Hi! What are you?")).toMatch(/^Assistant: I'm a \*\*scripted AG-UI agent\*\*: my answers stream as text deltas into Carbon AI Chat through carbon-agui-rx\. Ask me /);
  });
});

describe("the demo agent's booking form and names", () => {
  it("paints the booking form as the A2UI middleware would, and confirms what Book sends", async () => {
    expect(await ask("Show me a booking form")).toContain("How did I get this answer? render_a2ui (success)");
    const [surface] = [...adapter.activities.values()];
    expect(surface).toMatchObject({ activityType: "a2ui-surface" });
    expect((surface!.content as { a2ui_operations: unknown[] }).a2ui_operations).toHaveLength(3);
    await adapter.sendSurfaceAction({ name: "book_room", surfaceId: "booking", sourceComponentId: "book", timestamp: new Date().toISOString(), context: { hotel: ["old-town"], name: "Ada", nights: 3, guests: "2" } }, carbon);
    expect(carbon.transcript().split("\n").at(-1)).toBe("Assistant: Booked Old Town Inn for Ada: 3 nights, 2 guests.");
  });

  it.each([
    ["approve", "Assistant: Done: deleted `/tmp/a.log`, `/tmp/b.log`, `/tmp/c.log`."],
    ["reject", "Assistant: Okay, I left the files alone."],
  ])("answers the approval form's %s", async (name, reply) => {
    expect(await ask("Show me an approval form")).toContain("render_a2ui (success)");
    await adapter.sendSurfaceAction({ name, surfaceId: "approval", sourceComponentId: name, timestamp: new Date().toISOString(), context: {} }, carbon);
    expect(carbon.transcript().split("\n").at(-1)).toBe(reply);
  });

  it("suggests another name each time the same question is asked again", async () => {
    const said: string[] = [];
    const withVersions = new CarbonAgUiAdapter({ run: createSseRunner({ url: agent.url }), persistence: { store: memoryStore(), channel: false } });
    await withVersions.sendMessage({ id: "q1", input: { text: "Suggest a name" } } as never, { signal: new AbortController().signal } as never, carbon);
    said.push(String(withVersions.messages.at(-1)!.content));
    await withVersions.regenerate(carbon);
    said.push(String(withVersions.messages.at(-1)!.content));
    expect(said).toEqual(["How about **Biscuit**?", "How about **Pixel**?"]);
  });
});

describe("the framework demos' scripted model follows what was said too", () => {
  const reply = (said: string) => demoReply({ prompt: [{ role: "user", content: [{ type: "text", text: said }] }] } as never);
  it("looks up the weather of the city named, and asks which city when none is", () => {
    expect(reply("What's the weather in Rome?")).toMatchObject({ toolCalls: [{ name: "get_weather", args: { city: "Rome" } }] });
    expect(reply("weather in paris")).toMatchObject({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
    expect(reply("What's the weather?")).toEqual({ text: ["Which city?"] });
  });

  it("looks up the ticker named", () => {
    expect(reply("What is the stock price of AAPL?")).toMatchObject({ toolCalls: [{ name: "get_stock_price", args: { symbol: "AAPL" } }] });
  });
});
