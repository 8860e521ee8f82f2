import { threadOf } from "../support/threads";
import { CancellationReason } from "../../src/carbon";
import { Turn } from "../../src/adapter/turns/turn";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { testScheduler } from "../support/marbles";

const newTurn = (...signals: (AbortSignal | undefined)[]) => new Turn(threadOf({}), new CarbonRecorder(), signals);

describe("Turn", () => {
  it("emits why it ended once, when any signal it follows aborts, then completes", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const carbon = new AbortController();
      const host = new AbortController();
      const turn = newTurn(carbon.signal, undefined, host.signal);
      cold("--a--b").subscribe((key) => (key === "a" ? host : carbon).abort(key === "a" ? CancellationReason.STOP_STREAMING : CancellationReason.TIMEOUT));
      expectObservable(turn.ended$).toBe("--(x|)", { x: CancellationReason.STOP_STREAMING });
    });
  });

  it("has ended at once when a signal it follows had already aborted", () => {
    testScheduler().run(({ expectObservable }) => {
      const aborted = new AbortController();
      aborted.abort(CancellationReason.CONVERSATION_RESTARTED);
      const turn = newTurn(aborted.signal);
      expect(turn.ended).toBe(true);
      expectObservable(turn.ended$).toBe("(x|)", { x: CancellationReason.CONVERSATION_RESTARTED });
    });
  });

  it("ends by its own hand, once: the first reason stays", () => {
    const turn = newTurn();
    turn.end(CancellationReason.CONVERSATION_RESTARTED);
    turn.end(CancellationReason.STOP_STREAMING);
    expect(turn.signal.reason).toBe(CancellationReason.CONVERSATION_RESTARTED);
  });

  it("lets go of the signals it follows once closed", () => {
    const carbon = new AbortController();
    const turn = newTurn(carbon.signal);
    turn.close();
    carbon.abort(CancellationReason.STOP_STREAMING);
    expect(turn.ended).toBe(false);
  });

  it("keeps the thread it began on, and reads the conversation its branch comes to", () => {
    const thread = threadOf({});
    const turn = new Turn(thread, new CarbonRecorder());
    expect([turn.thread, turn.conversation]).toEqual([thread, thread.conversation]);
  });
});
