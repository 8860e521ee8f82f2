import type { Message } from "@ag-ui/core";
import type { MonoTypeOperatorFunction } from "rxjs";
import type { PipelineElement } from "../../instructions";
import { createOperator } from "../fusion";

/** The activity type `@ag-ui/mcp-apps-middleware` gives a tool's MCP App. */
export const MCP_APP = "mcp-apps";

/** The `user_defined` payload of an MCP App's item: the renderer (`carbon-agui-rx/mcp-apps`) draws the activity it names. */
export interface McpAppData {
  kind: "mcp-app";
  /** The activity's message id (`adapter.activities`, `activity$`): its content holds the app's resource, the tool's input and result. */
  activityId: string;
  /** The call the app came of: the one whose result came last before the activity (the middleware names none). */
  toolCallId?: string;
  /** That call's tool: the one tool the app may call unless the host allows others. */
  toolName?: string;
}

export interface McpAppsOptions {
  /** The activities the conversation held before this run: their items were shown in an earlier answer. */
  knownActivityIds?: Iterable<string>;
}

/**
 * Each MCP App (an activity of type `mcp-apps`) becomes one Carbon
 * `user_defined` item (`McpAppData`) where the answer brings it, naming the
 * tool call it came of: the middleware sends the app's activity right after
 * its call's result and names no call, so the call is the one answered last
 * before it (in a MESSAGES_SNAPSHOT, the tool message before it).
 *
 * ```
 * source: --c--r--a--|    c: history.message, the call "get-time"; r: history.message, its result; a: activity.snapshot mcp-apps "app1"
 * result: --c--r--(ia)|   i: item.complete user_defined { kind: "mcp-app", activityId: "app1", toolCallId, toolName: "get-time" }
 * ```
 */
export function mcpApps(options: McpAppsOptions = {}): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const shown = new Set(options.knownActivityIds);
      const toolNames = new Map<string, string>();
      let lastAnswered: string | undefined;
      const read = (message: Message) => {
        if (message.role === "assistant") for (const call of message.toolCalls ?? []) toolNames.set(call.id, call.function.name);
        else if (message.role === "tool") lastAnswered = message.toolCallId;
        else if (message.role === "activity" && message.activityType === MCP_APP) show(message.id);
      };
      const show = (activityId: string) => {
        if (shown.has(activityId)) return;
        shown.add(activityId);
        const toolName = lastAnswered === undefined ? undefined : toolNames.get(lastAnswered);
        const user_defined: McpAppData = { kind: "mcp-app", activityId, ...(lastAnswered !== undefined && { toolCallId: lastAnswered }), ...(toolName !== undefined && { toolName }) };
        out.next({ kind: "item.complete", itemId: `mcp-app-${activityId}`, item: { response_type: "user_defined", user_defined } });
      };
      return {
        next(element) {
          if ("kind" in element) {
            if (element.kind === "history.message") read(element.message);
            else if (element.kind === "activity.snapshot" && element.activityType === MCP_APP) show(element.messageId);
            else if (element.kind === "history.snapshot") for (const message of element.messages) read(message);
          }
          out.next(element);
        },
      };
    },
    ["activity.snapshot", "history.snapshot", "history.message"],
  );
}
