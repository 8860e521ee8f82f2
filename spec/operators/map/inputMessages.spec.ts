import { map } from "rxjs";
import type { PipelineElement } from "../../../src/instructions";
import { inputMessages } from "../../../src/operators/map/inputMessages";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const u1 = { id: "u1", role: "user" as const, content: "Hi" };
const started = (input?: unknown): PipelineElement => ({ ...ev.runStarted(), ...(input !== undefined && { input }) }) as PipelineElement;

describe("inputMessages", () => {
  it("writes the messages RUN_STARTED echoes to the history before passing it on", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s----x-|", { s: started({ messages: [u1, { id: "a1", role: "assistant", content: "Hello" }] }), x: instr.finished() });
      expectObservable(source.pipe(inputMessages())).toBe("-(is)-x-|", {
        i: { kind: "history.input", messages: [u1, { id: "a1", role: "assistant", content: "Hello" }] },
        s: started({ messages: [u1, { id: "a1", role: "assistant", content: "Hello" }] }),
        x: instr.finished(),
      });
      expectSubscriptions(source.subscriptions).toBe("^-------!");
    });
  });

  it("writes nothing for a RUN_STARTED without input, or with no message it could hold", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-|", { a: started(), b: started({ messages: [{ role: "user" }, "text"] }) });
      expectObservable(source.pipe(inputMessages())).toBe("-a-b-|", { a: started(), b: started({ messages: [{ role: "user" }, "text"] }) });
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-|", { s: started({ messages: [u1] }) });
      const result = source.pipe(
        inputMessages(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => inputMessages(), instr.finished());
});
