import type { Message } from "@ag-ui/core";
import { EMPTY, NEVER, of, throwError } from "rxjs";
import { CancellationReason } from "../../src/carbon";
import { AgUiInterruptError, AgUiRegenerateError, AgUiRunError, CarbonAgUiError } from "../../src/errors";
import { ErrorPolicy } from "../../src/adapter/turns/errorPolicy";
import { resolveOptions } from "../../src/adapter/options";
import { decisionTarget } from "../../src/adapter/turns/resume";
import { cancellation } from "../../src/adapter/runInput";
import { outcomeOf } from "../../src/adapter/turns/outcome";
import { Turn } from "../../src/adapter/turns/turn";
import { Turns } from "../../src/adapter/turns/turnPath";
import { RUN_BEGAN } from "../../src/adapter/turns/deliverRun";
import { CarbonRecorder } from "../../src/testing";
import { threadOf } from "../support/threads";

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

    it("rejects a refusal, telling onError nothing: it is no failure", async () => {
      const told: CarbonAgUiError[] = [];
      const policy = new ErrorPolicy(() => "Shown.", (error) => told.push(error), false);
      const refusal = new AgUiRegenerateError("A card waits for an answer");
      await expect(policy.settle(Promise.resolve({ how: "refused", began: false, error: refusal }), "unshown")).rejects.toBe(refusal);
      expect(told).toEqual([]);
    });

    it("resolves a turn nobody waits on (the adapter's own), telling onError of its failure", async () => {
      const told: CarbonAgUiError[] = [];
      const policy = new ErrorPolicy(() => undefined, (error) => told.push(error), true);
      const error = new AgUiRunError("a rejoined run failed");
      await expect(policy.settle(Promise.resolve({ how: "failed", began: true, error }), "never")).resolves.toBeUndefined();
      expect(told).toEqual([error]);
    });
  });

  describe("Turns", () => {
    it("plays the turns asked for one after another, ends the one playing on stop and every one asked for on endAll", async () => {
      const thread = threadOf({});
      const turns = new Turns({ errors: new ErrorPolicy(undefined, () => undefined, false), current: () => thread, restarted: () => undefined });
      const carbon = new CarbonRecorder();
      const order: string[] = [];
      let releaseFirst!: () => void;
      const seen: Turn[] = [];
      const playingFirst = turns.play({ instance: carbon, settles: "never", play: (turn) => new Promise((resolve) => (seen.push(turn), order.push("first"), (releaseFirst = () => resolve({ how: "finished", began: true })))) });
      const playingSecond = turns.play({ instance: carbon, settles: "never", play: async (turn) => (seen.push(turn), order.push(turn.ended ? "second ended" : "second"), { how: "finished", began: true }) });
      await Promise.resolve();
      expect(order).toEqual(["first"]);
      turns.stopPlaying();
      expect(seen[0]!.signal.reason).toBe(CancellationReason.STOP_STREAMING);
      releaseFirst();
      await Promise.all([playingFirst, playingSecond]);
      expect(order).toEqual(["first", "second"]);
      expect(seen.map((turn) => turn.thread)).toEqual([thread, thread]);
      let releaseThird!: () => void;
      const third = turns.play({ instance: carbon, settles: "never", play: (turn) => new Promise((resolve) => (seen.push(turn), (releaseThird = () => resolve({ how: "stopped", began: false })))) });
      const fourth = turns.play({ instance: carbon, settles: "never", play: async (turn) => (order.push(turn.ended ? "fourth ended" : "fourth"), { how: "stopped", began: false }) });
      turns.endAll(CancellationReason.CONVERSATION_RESTARTED);
      expect(seen[2]!.signal.reason).toBe(CancellationReason.CONVERSATION_RESTARTED);
      releaseThird();
      await Promise.all([third, fourth]);
      expect(order.at(-1)).toBe("fourth ended");
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

  describe("cancellation", () => {
    it("cancels the agent's interrupts in a resume with no messages, which answers them once the agent takes it; the chat's own cards at once", () => {
      const call: Message = { id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "delete", arguments: "{}" } }, { id: "t2", type: "function", function: { name: "pick", arguments: "{}" } }] };
      const thread = threadOf({ messages: [call], state: { n: 1 }, pending: [{ id: "i1", reason: "approval", toolCallId: "t1" }, { id: "client-tool-t2", reason: "client_tool", toolCallId: "t2" }] });
      const { runFields } = resolveOptions({ run: () => EMPTY, forwardedProps: { tenant: "x" } });
      const cancelled = cancellation(new Turn(thread, new CarbonRecorder()), runFields);
      expect(cancelled?.input).toMatchObject({ messages: [], resume: [{ interruptId: "i1", status: "cancelled" }], threadId: thread.threadId, state: { n: 1 }, forwardedProps: { tenant: "x" } });
      expect(cancelled?.answers).toEqual([{ interruptId: "i1", answer: "cancelled", entry: { interruptId: "i1", status: "cancelled" } }]);
      // The chat's own card is answered at once; the agent's waits until the agent takes its cancellation.
      expect(thread.conversation.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["i1"]);
      expect(thread.conversation.answerOf("client-tool-t2")).toBe("cancelled");
      expect(thread.conversation.messages.map((message) => message.id)).toEqual(["a1", "t2-decision"]);
    });

    it("has no run to make when only the chat's cards wait", () => {
      const thread = threadOf({ pending: [{ id: "client-tool-t2", reason: "client_tool", toolCallId: "t2" }] });
      expect(cancellation(new Turn(thread, new CarbonRecorder()), resolveOptions({ run: () => EMPTY }).runFields)).toBeUndefined();
    });
  });

  describe("outcomeOf", () => {
    it("tells whether the turn's first run began and what the turn came to, as a value", async () => {
      await expect(outcomeOf(of(RUN_BEGAN, { kind: "run.ended" as const, ended: "finished" as const }), () => false)).resolves.toEqual({ how: "finished", began: true });
      // How its last run ended, as the thread's log says (an outcome of `cancelled` is a stop).
      await expect(outcomeOf(of(RUN_BEGAN, { kind: "run.ended" as const, ended: "stopped" as const }), () => false)).resolves.toEqual({ how: "stopped", began: true });
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
