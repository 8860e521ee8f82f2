import { map } from "rxjs";
import type { Message } from "@ag-ui/core";
import type { PipelineElement } from "../../../src/instructions";
import { mcpApps } from "../../../src/operators/map/mcpApps";
import { ev, instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const app = (messageId: string, activityType = "mcp-apps"): PipelineElement => ({ kind: "activity.snapshot", messageId, activityType, content: { resourceUri: "ui://get-time/mcp-app.html", serverId: "time", toolInput: {}, result: { content: [] } }, replace: true });
const said = (message: Message): PipelineElement => ({ kind: "history.message", message });
const call = (id: string, name: string): Message => ({ id: `m-${id}`, role: "assistant", toolCalls: [{ id, type: "function", function: { name, arguments: "{}" } }] });
const result = (toolCallId: string): Message => ({ id: `r-${toolCallId}`, role: "tool", toolCallId, content: "12:00" });
const item = (activityId: string, toolCallId?: string, toolName?: string): PipelineElement => ({
  kind: "item.complete",
  itemId: `mcp-app-${activityId}`,
  item: { response_type: "user_defined", user_defined: { kind: "mcp-app", activityId, ...(toolCallId && { toolCallId }), ...(toolName && { toolName }) } },
});

describe("mcpApps", () => {
  it("shows each app as one item where it comes, naming the call answered last before it", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = { c: said(call("t1", "get-time")), d: said(call("t2", "search")), r: said(result("t1")), a: app("app1"), b: app("app1"), t: instr.textDelta("m1", "Here it is."), o: app("plan", "plan") };
      const source = cold("-c-d-r-a----t-b-o-|", values);
      expectObservable(source.pipe(mcpApps())).toBe("-c-d-r-(ia)-t-b-o-|", { ...values, i: item("app1", "t1", "get-time") });
      expectSubscriptions(source.subscriptions).toBe("^-----------------!");
    });
  });

  it("names no call for an app that no result came before, and shows one a messages snapshot brings after its call's result", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const snapshot: PipelineElement = {
        kind: "history.snapshot",
        messages: [call("t9", "show_clock"), result("t9"), { id: "app2", role: "activity", activityType: "mcp-apps", content: {} }, { id: "old", role: "activity", activityType: "mcp-apps", content: {} }],
      };
      const values = { a: app("app1"), h: snapshot };
      expectObservable(cold("-a----h----|", values).pipe(mcpApps({ knownActivityIds: ["old"] }))).toBe("-(ia)-(jh)-|", { ...values, i: item("app1"), j: item("app2", "t9", "show_clock") });
    });
  });

  it("errors when a downstream callback throws, and unsubscribes the source", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-|", { a: app("app1") });
      const result = source.pipe(
        mcpApps(),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => mcpApps(), ev.custom("x") as PipelineElement);
});
