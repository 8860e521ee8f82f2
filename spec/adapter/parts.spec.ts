import type { Message } from "@ag-ui/core";
import { EMPTY, NEVER, of, throwError } from "rxjs";
import { CancellationReason } from "../../src/carbon";
import { Conversation } from "../../src/conversation";
import { AgUiInterruptError, AgUiRunError, CarbonAgUiError } from "../../src/errors";
import { ErrorPolicy } from "../../src/adapter/turns/errorPolicy";
import { resolveOptions } from "../../src/adapter/options";
import { decisionTarget } from "../../src/adapter/turns/resume";
import { cancellation, userMessageInput } from "../../src/adapter/runInput";
import { outcomeOf } from "../../src/adapter/turns/outcome";
import { TurnQueue } from "../../src/adapter/turns/turnQueue";
import { RUN_BEGAN } from "../../src/adapter/turns/deliverRun";
import { CarbonRecorder } from "../../src/testing";

describe("the adapter's parts, each on its own", () => {
  describe("ErrorPolicy", () => {
    it("resolves a failure the chat showed, and rejects one it did not, telling onError of both", async () => {
      const told: CarbonAgUiError[] = [];
      const policy = new ErrorPolicy((error) => (error instanceof AgUiRunError ? "The agent failed." : undefined), (error) => told.push(error), false);
      const shown = new AgUiRunError("boom");
      expect(policy.describeError(shown)).toBe("The agent failed.");
      await expect(policy.settle(Promise.resolve({ how: "failed", began: true, error: shown }), "unshown")).resolves.toBeUndefined();
      const hidden = new Error("not shown");
      expect(policy.describeError(hidden)).toBeUndefined();
      await expect(policy.settle(Promise.resolve({ how: "failed", began: true, error: hidden }), "unshown")).rejects.toBeInstanceOf(CarbonAgUiError);
      expect(told.map((error) => error.message)).toEqual(["boom", "not shown"]);
    });

    it("rejects a resume's every failure, tells onError of it, and of no stop", async () => {
      const told: CarbonAgUiError[] = [];
      const policy = new ErrorPolicy(() => "Shown.", (error) => told.push(error), false);
      const error = new AgUiRunError("resume exploded");
      policy.describeError(error);
      await expect(policy.settle(Promise.resolve({ how: "failed", began: true, error }), "always")).rejects.toBe(error);
      const notSent = new AgUiInterruptError("Stopped before the agent took the decision");
      await expect(policy.settle(Promise.resolve({ how: "stopped", began: false, notSent }), "always")).rejects.toBe(notSent);
      await expect(policy.settle(Promise.resolve({ how: "stopped", began: false, notSent }), "unshown")).resolves.toBeUndefined();
      await expect(policy.settle(Promise.resolve({ how: "finished", began: true }), "always")).resolves.toBeUndefined();
      expect(told).toEqual([error]);
    });

    it("rejects every failure with rejectOnError", async () => {
      const policy = new ErrorPolicy(() => "Shown.", () => undefined, true);
      const error = new AgUiRunError("boom");
      policy.describeError(error);
      await expect(policy.settle(Promise.reject(error), "unshown")).rejects.toBe(error);
    });

    it("resolves a turn nobody waits on (the adapter's own), telling onError of its failure", async () => {
      const told: CarbonAgUiError[] = [];
      const policy = new ErrorPolicy(() => undefined, (error) => told.push(error), true);
      const error = new AgUiRunError("a rejoined run failed");
      await expect(policy.settle(Promise.resolve({ how: "failed", began: true, error }), "never")).resolves.toBeUndefined();
      expect(told).toEqual([error]);
    });
  });

  describe("TurnQueue", () => {
    it("plays turns one after another, ends the one playing on stop and every one begun on endAll", async () => {
      const queue = new TurnQueue();
      const conversation = new Conversation();
      const carbon = new CarbonRecorder();
      const first = queue.begin(conversation, carbon, []);
      const second = queue.begin(conversation, carbon, []);
      const order: string[] = [];
      let releaseFirst!: () => void;
      const playingFirst = queue.play(first, () => new Promise<void>((resolve) => ((releaseFirst = resolve), order.push("first"))));
      const playingSecond = queue.play(second, async () => void order.push(second.ended ? "second ended" : "second"));
      await Promise.resolve();
      expect(order).toEqual(["first"]);
      queue.stopPlaying();
      expect([first.signal.reason, second.ended]).toEqual([CancellationReason.STOP_STREAMING, false]);
      releaseFirst();
      await Promise.all([playingFirst, playingSecond]);
      expect(order).toEqual(["first", "second"]);
      const third = queue.begin(conversation, carbon, []);
      queue.endAll(CancellationReason.CONVERSATION_RESTARTED);
      expect(third.signal.reason).toBe(CancellationReason.CONVERSATION_RESTARTED);
    });
  });

  describe("decisionTarget", () => {
    const pending = (id: string, decided = false) => ({ interrupt: { id, reason: "approval" }, ...(decided && { decision: { type: "approve" as const } }) });

    it("takes the one named, else the oldest without a decision, else the only one", () => {
      expect(decisionTarget([pending("a"), pending("b")], "b").interrupt.id).toBe("b");
      expect(decisionTarget([pending("a", true), pending("b")], undefined).interrupt.id).toBe("b");
      expect(decisionTarget([pending("a", true)], undefined).interrupt.id).toBe("a");
    });

    it("refuses to guess between several decided ones, and says when there is none or no such one", () => {
      expect(() => decisionTarget([pending("a", true), pending("b", true)], undefined)).toThrow("All 2 pending interrupts already have a decision; name the one to change");
      expect(() => decisionTarget([], undefined)).toThrow(AgUiInterruptError);
      expect(() => decisionTarget([pending("a")], "z")).toThrow("There is no pending interrupt 'z'");
    });
  });

  describe("cancellation and userMessageInput", () => {
    it("answers pending interrupts as cancelled in a resume with no messages, their calls' results recorded; then the message runs with the whole history", () => {
      const call: Message = { id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "delete", arguments: "{}" } }] };
      const conversation = new Conversation({ threadId: "t", messages: [call], state: { n: 1 } });
      conversation.addPendingInterrupts([{ id: "i1", reason: "approval", toolCallId: "t1" }]);
      const { runFields } = resolveOptions({ run: () => EMPTY, forwardedProps: { tenant: "x" } });
      expect(cancellation(conversation, runFields).run?.input).toMatchObject({ messages: [], resume: [{ interruptId: "i1", status: "cancelled" }], threadId: "t", state: { n: 1 }, forwardedProps: { tenant: "x" } });
      expect(conversation.pendingInterrupts).toEqual([]);
      expect(cancellation(conversation, runFields)).toEqual({ answered: [] });
      const input = userMessageInput(conversation, { id: "u1", content: "No, something else" }, runFields);
      expect(input.messages.map((message) => [message.id, message.role])).toEqual([["a1", "assistant"], ["t1-decision", "tool"], ["u1", "user"]]);
      expect(input.resume).toBeUndefined();
    });

    it("puts the interrupts back as they were, decisions included, and takes the cancelled results out, when the agent never took the cancellation", () => {
      const call: Message = { id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "delete", arguments: "{}" } }] };
      const kept: Message = { id: "t2-result", role: "tool", toolCallId: "t2", content: "done" };
      const conversation = new Conversation({ threadId: "t", messages: [call, kept] });
      conversation.addPendingInterrupts([{ id: "i1", reason: "approval", toolCallId: "t1" }, { id: "i2", reason: "approval" }]);
      conversation.decideInterrupt("i2", { type: "approve" });
      const { runFields } = resolveOptions({ run: () => EMPTY });
      const taken = cancellation(conversation, runFields);
      expect(conversation.messages.map((message) => message.id)).toContain("t1-decision");
      taken.run?.putBack();
      expect(conversation.messages).toEqual([call, kept]);
      expect(conversation.pendingInterrupts.map((entry) => [entry.interrupt.id, entry.decision?.type])).toEqual([["i1", undefined], ["i2", "approve"]]);
    });
  });

  describe("outcomeOf", () => {
    it("tells whether the turn's first run began and what the turn came to, as a value", async () => {
      await expect(outcomeOf(of(RUN_BEGAN, { kind: "run.ended" as const }), () => false)).resolves.toEqual({ how: "finished", began: true });
      await expect(outcomeOf(EMPTY, () => false)).resolves.toEqual({ how: "finished", began: false });
      await expect(outcomeOf(of(RUN_BEGAN), () => true)).resolves.toEqual({ how: "stopped", began: true });
      const error = new AgUiRunError("boom");
      await expect(outcomeOf(throwError(() => error), () => true)).resolves.toEqual({ how: "failed", began: false, error });
    });

    it("waits for the runs to end", async () => {
      let settled = false;
      void outcomeOf(NEVER, () => false).then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(settled).toBe(false);
    });
  });
});
