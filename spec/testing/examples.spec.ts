// The examples of docs/testing.md, run as written (imports by the package's public names).
import { CarbonAgUiAdapter } from "carbon-agui-rx";
import { CarbonRecorder, carbon, ev, marbleTest, scriptedAgent } from "carbon-agui-rx/testing";
import { redactEmails } from "../../examples/operators/redactEmails";

describe("docs/testing.md", () => {
  it("1. tests a custom operator", () => {
    // An operator of yours: it hides e-mail addresses in streamed text (examples/operators/redactEmails.ts).
    marbleTest(({ agent, expectCarbon }) => {
      const events = agent("a-b-c-d-e|", {
        a: ev.runStarted(),
        b: ev.textStart("m1"),
        c: ev.text("m1", "Write to ada@example.com"),
        d: ev.textEnd("m1"),
        e: ev.runFinished(),
      });
      expectCarbon(events, { operators: [redactEmails()] }).toBe("----p-C-(f|)", {
        p: carbon.partialText("r1", "m1", "Write to [email]"),
        C: carbon.completeText("r1", "m1", "Write to [email]"),
        f: carbon.final("r1", [carbon.textItem("m1", "Write to [email]")]),
      });
    });
  });

  it("2. tests an interrupt flow end to end", async () => {
    const agent = await scriptedAgent([
      ev.run(ev.toolCall("t1", "send_email", { to: "ada@example.com" }), ev.interrupt({ id: "i1", reason: "approval", message: "Send this email?", toolCallId: "t1" })),
      ev.run(ev.message("m1", "Sent.")),
    ]);
    try {
      const adapter = new CarbonAgUiAdapter({ run: agent.run });
      const chat = new CarbonRecorder();
      await adapter.sendMessage({ id: "u1", input: { text: "Email Ada" } }, { signal: new AbortController().signal }, chat);
      expect(adapter.pendingInterrupt?.interrupt.id).toBe("i1");

      await adapter.respondToInterrupt({ type: "approve" }, chat);

      expect(agent.inputs[1]?.resume).toEqual([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
      expect(chat.transcript()).toBe(["Assistant: [decision card: Send this email?]", "  How did I get this answer? send_email (success)", "Assistant: Sent."].join("\n"));
    } finally {
      await agent.close();
    }
  });

  it("3. tests a whole conversation", async () => {
    const agent = await scriptedAgent([ev.run(ev.message("a1", "Hello! ", "How can I help?")), ev.run(ev.stateSnapshot({ city: "Oslo" }), ev.message("a2", "Noted: Oslo."))]);
    try {
      const adapter = new CarbonAgUiAdapter({ run: agent.run });
      const chat = new CarbonRecorder();
      const say = (text: string) => {
        chat.userSays(text);
        return adapter.sendMessage({ id: text, input: { text } }, { signal: new AbortController().signal }, chat);
      };
      await say("Hi");
      await say("I live in Oslo");

      expect(chat.transcript()).toBe(["You: Hi", "Assistant: Hello! How can I help?", "You: I live in Oslo", "Assistant: Noted: Oslo."].join("\n"));
      expect(agent.inputs[1]?.messages.map((message) => message.content)).toEqual(["Hi", "Hello! How can I help?", "I live in Oslo"]);
      expect(adapter.state).toEqual({ city: "Oslo" });
      expect(chat.waitingForFinal).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});
