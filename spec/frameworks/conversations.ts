import { AgUiEmptyRunError, AgUiRunError, CarbonAgUiError, CancellationReason, createSseRunner } from "carbon-agui-rx";
import { NO_TOOL_RESULT } from "../../src/operators/map/toolCallSteps";
import { createCopilotKitAgent, serveCopilotKit } from "../../examples/frameworks/copilotkit";
import { scriptedModel } from "../../examples/frameworks/scriptedModel";
import { Chat, startPartner, transports, waitUntil, type Framework, type Partner } from "./partners";
import type { ModelScript } from "../../examples/frameworks/scriptedModel";

/** A tool result as the model got it: text as it is, JSON values as JSON. */
function resultText(output: { type: string; value?: unknown }): string {
  if (output.value === undefined) return output.type;
  return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
}

/** The prompt of the model's `index`th call, as role: text lines (tool calls and results summarised). */
function promptOf(partner: Partner, index: number): string[] {
  const call = partner.model.doStreamCalls[index];
  if (!call) throw new Error(`the model got no call ${index}`);
  return call.prompt
    .filter((message) => message.role !== "system")
    .map((message) => {
      if (message.role === "user") return `user: ${message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("")}`;
      const parts = message.content.map((part) => {
        switch (part.type) {
          case "text":
            return part.text;
          case "tool-call":
            return `[call ${part.toolName} ${JSON.stringify(part.input)}]`;
          case "tool-result":
            return `[result ${part.toolName}: ${resultText(part.output)}]`;
          default:
            return `[${part.type}]`;
        }
      });
      return `${message.role}: ${parts.join(" ")}`;
    });
}

/**
 * Ordinary conversations with a real framework agent, driven by a scripted
 * mock model, through each transport into the adapter and a recording Carbon
 * instance: what the person sees, one final response per message, and that
 * the next message still works.
 */
export function describeConversations(framework: Framework): void {
  // The frameworks log every model failure the scenarios provoke (stacks included); what the person sees is asserted instead.
  beforeAll(() => {
    jest.spyOn(console, "error").mockImplementation(() => undefined);
    jest.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterAll(() => jest.restoreAllMocks());
  describe.each(transports)(`${framework} (%s)`, (transport) => {
    let partner: Partner | undefined;
    afterEach(async () => {
      await partner?.close();
      partner = undefined;
    });

    const start = async (script: ModelScript) => (partner = await startPartner(framework, transport, script));
    const expectSettled = (chat: Chat, messages: number) => {
      expect(chat.carbon.waitingForFinal).toEqual([]);
      const finals = Object.values(chat.finalsPerMessage());
      expect(finals).toEqual(Array.from({ length: messages }, () => 1));
    };

    it("streams a text answer, and the next message gets its own", async () => {
      const agent = await start([{ text: ["Hello ", "there", "!"] }, { text: ["Again."] }]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("Hi")).toBeUndefined();
      expect(await chat.say("Once more")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(["You: Hi", "Assistant: Hello there!", "You: Once more", "Assistant: Again."].join("\n"));
      expectSettled(chat, 2);
    });

    it("shows a tool call with its arguments and result, then the text after it", async () => {
      const agent = await start([{ text: ["Let me check."], toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Paris" } }] }, { text: ["It is sunny in Paris."] }, { text: ["You are welcome."] }]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("Weather in Paris?")).toBeUndefined();
      const steps = chat.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? (chunk.final_response.message_options?.chain_of_thought ?? []) : []));
      expect(steps).toEqual([{ tool_name: "get_weather", status: "success", request: { args: { city: "Paris" } }, response: { content: JSON.stringify({ city: "Paris", forecast: "sunny", celsius: 21 }) } }]);
      expect(await chat.say("Thanks")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(
        ["You: Weather in Paris?", "Assistant: Let me check.", "It is sunny in Paris.", "  How did I get this answer? get_weather (success)", "You: Thanks", "Assistant: You are welcome."].join("\n"),
      );
      expect(promptOf(agent, 2)).toEqual([
        "user: Weather in Paris?",
        'assistant: Let me check. [call get_weather {"city":"Paris"}]',
        'tool: [result get_weather: {"city":"Paris","forecast":"sunny","celsius":21}]',
        "assistant: It is sunny in Paris.",
        "user: Thanks",
      ]);
      expectSettled(chat, 2);
    });

    it("shows parallel tool calls, each with its own result", async () => {
      const agent = await start([
        { toolCalls: [{ id: "c1", name: "get_weather", args: { city: "Paris" } }, { id: "c2", name: "get_weather", args: { city: "Rome" } }] },
        { text: ["Sunny in both."] },
        { text: ["Bye."] },
      ]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("Paris and Rome?")).toBeUndefined();
      expect(await chat.say("Bye")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(
        ["You: Paris and Rome?", "Assistant: Sunny in both.", "  How did I get this answer? get_weather (success), get_weather (success)", "You: Bye", "Assistant: Bye."].join("\n"),
      );
      expectSettled(chat, 2);
    });

    it("sends the whole conversation to the model on every turn", async () => {
      const agent = await start([{ text: ["One."] }, { text: ["Two."] }, { text: ["Three."] }]);
      const chat = new Chat({ run: agent.run });
      for (const text of ["First", "Second", "Third"]) expect(await chat.say(text)).toBeUndefined();
      expect(promptOf(agent, 2)).toEqual(["user: First", "assistant: One.", "user: Second", "assistant: Two.", "user: Third"]);
      expectSettled(chat, 3);
    });

    it("shows the model's reasoning before its answer", async () => {
      const agent = await start([{ reasoning: ["Thinking ", "hard."], text: ["Forty-two."] }, { text: ["Yes."] }]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("The answer?")).toBeUndefined();
      expect(await chat.say("Sure?")).toBeUndefined();
      expect(chat.carbon.transcript()).toMatch(/^You: The answer\?\nAssistant: \(.*: Thinking hard\.\)\nForty-two\.\nYou: Sure\?\nAssistant: Yes\.$/);
      expectSettled(chat, 2);
    });

    it("stops mid-answer on the stop button, and the next message works", async () => {
      const agent = await start([{ text: ["Once upon ", "a time"], holdAfterTextMs: 500 }, { text: ["Short one."] }]);
      const chat = new Chat({ run: agent.run });
      const stop = new AbortController();
      const turn = chat.say("Tell me a story", stop.signal);
      await waitUntil(() => chat.carbon.transcript().includes("a time"));
      stop.abort(CancellationReason.STOP_STREAMING);
      expect(await turn).toBeUndefined();
      expect(await chat.say("A short one")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(["You: Tell me a story", "Assistant: Once upon a time", "  (Response stopped)", "You: A short one", "Assistant: Short one."].join("\n"));
      expectSettled(chat, 2);
    });

    it.each([0, 20])("stops on the stop button %i ms after the message, before or around the first event, and the next message works", async (delay) => {
      const lastWords = (call: { prompt: readonly { role: string; content: unknown }[] }) => JSON.stringify(call.prompt.at(-1)?.content);
      const agent = await start((call) => (lastWords(call).includes("story") ? { text: ["Once upon ", "a time"], holdAfterTextMs: 500 } : { text: ["Short one."] }));
      const chat = new Chat({ run: agent.run });
      const stop = new AbortController();
      const turn = chat.say("Tell me a story", stop.signal);
      await new Promise((resolve) => setTimeout(resolve, delay));
      stop.abort(CancellationReason.STOP_STREAMING);
      expect(await turn).toBeUndefined();
      expect(await chat.say("A short one")).toBeUndefined();
      expect(chat.carbon.transcript().split("\n").slice(-2)).toEqual(["You: A short one", "Assistant: Short one."]);
      // A turn stopped before it showed anything shows nothing, and Carbon waits on no final response.
      expectSettled(chat, chat.carbon.transcript().includes("Once upon") ? 2 : 1);
    });

    it("fails the turn with a library error when the model throws before answering, and the next message works", async () => {
      const agent = await start([{ throwBefore: "The model is overloaded" }, { text: ["Back again."] }]);
      const chat = new Chat({ run: agent.run });
      const error = await chat.say("Hi");
      expect(error).toBeInstanceOf(CarbonAgUiError);
      expect((error as Error).message).toContain("The model is overloaded");
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ message: (error as Error).message });
      expect(await chat.say("Hi again")).toBeUndefined();
      // Nothing was said: the answer is the reason, once.
      expect(chat.carbon.transcript()).toBe(["You: Hi", "Assistant: [error: The model is overloaded.]", "You: Hi again", "Assistant: Back again."].join("\n"));
      expectSettled(chat, 2);
    });

    it("keeps what was said when the model breaks off mid-answer, and the next message works", async () => {
      const agent = await start([{ text: ["Half of ", "an answer"], breakAfterText: "The connection to the model reset" }, { text: ["Whole answer."] }]);
      const chat = new Chat({ run: agent.run });
      const error = await chat.say("Hi");
      expect(error).toBeInstanceOf(CarbonAgUiError);
      expect((error as Error).message).toContain("The connection to the model reset");
      expect(await chat.say("Again")).toBeUndefined();
      const [first, , ...rest] = chat.carbon.transcript().split("\n");
      expect(first).toBe("You: Hi");
      expect(rest).toEqual(["[error: This answer is incomplete. The connection to the model reset.]", "You: Again", "Assistant: Whole answer."]);
      expectSettled(chat, 2);
    });

    it("marks a tool that threw as failed, and the next message works", async () => {
      const agent = await start([{ toolCalls: [{ id: "c1", name: "get_stock_price", args: { symbol: "IBM" } }] }, { text: ["The stock service is down."] }, { text: ["Still here."] }]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("IBM price?")).toBeUndefined();
      expect(await chat.say("Hello?")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(
        ["You: IBM price?", "Assistant: The stock service is down.", "  How did I get this answer? get_stock_price (failure)", "You: Hello?", "Assistant: Still here."].join("\n"),
      );
      // The next run carries no call without a result: the one that threw has "no result" as its result.
      expect(promptOf(agent, 2).filter((line) => line.startsWith("tool: "))).toEqual([`tool: [result get_stock_price: ${NO_TOOL_RESULT}]`]);
      expectSettled(chat, 2);
    });

    it("runs a frontend tool the agent asks for, continues the run with its result, and the next message works", async () => {
      const agent = await start([{ toolCalls: [{ id: "c1", name: "change_background", args: { color: "blue" } }] }, { text: ["It is blue now."] }, { text: ["Hello."] }]);
      const painted: unknown[] = [];
      const chat = new Chat({
        run: agent.run,
        tools: [
          {
            name: "change_background",
            description: "Changes the page's background colour",
            parameters: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
            handler: (args) => {
              painted.push(args);
              return { done: true };
            },
          },
        ],
      });
      expect(await chat.say("Make it blue")).toBeUndefined();
      expect(painted).toEqual([{ color: "blue" }]);
      expect(await chat.say("Hi")).toBeUndefined();
      expect(chat.carbon.transcript()).toBe(
        [
          "You: Make it blue",
          "Assistant:   How did I get this answer? change_background (success)",
          "Assistant: It is blue now.",
          "  How did I get this answer? change_background (success)",
          "You: Hi",
          "Assistant: Hello.",
        ].join("\n"),
      );
      expectSettled(chat, 3);
    });

    it("asks for approval, goes on once approved, and the next message works", async () => {
      const agent = await start([
        { text: ["I need your approval."], toolCalls: [{ id: "c1", name: "delete_files", args: { pattern: "*.tmp" } }] },
        { text: ["Deleted."] },
        { text: ["Anything else?"] },
      ]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("Delete my temp files")).toBeUndefined();
      expect(chat.adapter.pendingInterrupts).toHaveLength(1);
      expect(await chat.decide("approve")).toBeUndefined();
      expect(await chat.say("Thanks")).toBeUndefined();
      // CopilotKit's interrupt carries its own message; Mastra's says it in the suspend payload, and Mastra streams no events for the suspended call (no step).
      const asked = framework === "CopilotKit" ? ["[decision card: Delete these files?]", "  How did I get this answer? delete_files (success)"] : ["[decision card: Delete the files matching *.tmp?]"];
      expect(chat.carbon.transcript()).toBe(
        [
          "You: Delete my temp files",
          "Assistant: I need your approval.",
          ...asked,
          "Assistant: Deleted.",
          "You: Thanks",
          "Assistant: Anything else?",
        ].join("\n"),
      );
      expect(promptOf(agent, 2).slice(0, 2)).toEqual(["user: Delete my temp files", 'assistant: I need your approval. [call delete_files {"pattern":"*.tmp"}]']);
      expect(promptOf(agent, 2)[2]).toMatch(/^tool: \[result delete_files: /);
      expectSettled(chat, 3);
    });

    it("drops the card when the person writes something else instead, answers the message, and the thread goes on", async () => {
      // The cancellation is a run of its own, before the message's. CopilotKit's model answers it; @ag-ui/mastra resumes
      // the tool and says nothing (an empty response, which Carbon does not show).
      const cancellation = framework === "Mastra" ? [] : [{ text: ["I will leave them."] }];
      const agent = await start([
        { text: ["I need your approval."], toolCalls: [{ id: "c1", name: "delete_files", args: { pattern: "*.tmp" } }] },
        ...cancellation,
        { text: ["Here is a joke."] },
        { text: ["You are welcome."] },
      ]);
      const chat = new Chat({ run: agent.run });
      expect(await chat.say("Delete my temp files")).toBeUndefined();
      expect(await chat.say("No, tell me a joke")).toBeUndefined();
      expect(chat.adapter.pendingInterrupts).toEqual([]);
      expect(await chat.say("Thanks")).toBeUndefined();
      const cancelled = framework === "Mastra" ? "(no answer)" : "I will leave them.";
      expect(chat.carbon.transcript().split("\n").slice(-5)).toEqual(["You: No, tell me a joke", `Assistant: ${cancelled}`, "Assistant: Here is a joke.", "You: Thanks", "Assistant: You are welcome."]);
      expect(promptOf(agent, cancellation.length + 1).filter((line) => line.startsWith("user: ")).at(-1)).toBe("user: No, tell me a joke");
      expectSettled(chat, 4);
    });

    if (framework === "CopilotKit") {
      it("keeps the shared state the agent sets and sends it with the next run", async () => {
        const agent = await start([{ toolCalls: [{ id: "c1", name: "AGUISendStateSnapshot", args: { snapshot: { theme: "dark" } } }] }, { text: ["Dark it is."] }, { text: ["Still dark."] }]);
        const chat = new Chat({ run: agent.run, initialState: { theme: "light" } });
        expect(await chat.say("Dark mode")).toBeUndefined();
        expect(chat.adapter.state).toEqual({ theme: "dark" });
        expect(await chat.say("And now?")).toBeUndefined();
        expect(agent.model.doStreamCalls[2]?.prompt[0]).toMatchObject({ role: "system", content: expect.stringContaining('"theme": "dark"') });
        expectSettled(chat, 2);
      });
    }
  });

  it("rejects with a library error carrying the message when the model fails in-process", async () => {
    const partner = await startPartner(framework, "in-process", [{ throwBefore: "No model today" }]);
    const chat = new Chat({ run: partner.run });
    const error = await chat.say("Hi");
    expect(error).toBeInstanceOf(AgUiRunError);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: "AgUiRunError", message: expect.stringContaining("No model today") });
  });

  if (framework === "CopilotKit") {
    it("fails a message the runtime answers with no events (its thread still busy after a stop it was not told of), rather than showing an empty answer", async () => {
      const model = [{ text: ["Once upon ", "a time"], holdAfterTextMs: 1_000 }, { text: ["Short one."] }];
      const server = await serveCopilotKit(createCopilotKitAgent(scriptedModel(model)));
      try {
        const chat = new Chat({ run: createSseRunner({ url: server.url }) });
        const stop = new AbortController();
        const turn = chat.say("Tell me a story", stop.signal);
        await waitUntil(() => chat.carbon.transcript().includes("a time"));
        stop.abort(CancellationReason.STOP_STREAMING);
        expect(await turn).toBeUndefined();
        const error = await chat.say("A short one");
        expect(error).toBeInstanceOf(AgUiEmptyRunError);
        expect(chat.carbon.transcript().split("\n").at(-1)).toBe("Assistant: [error: The agent ended the run without answering.]");
        expect(chat.carbon.waitingForFinal).toEqual([]);
      } finally {
        await server.close();
      }
    });
  }
}
