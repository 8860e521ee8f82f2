import { AbstractAgent, EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { MCPAppsMiddleware } from "@ag-ui/mcp-apps-middleware";
import { Observable } from "rxjs";

/**
 * A scripted agent (its "model" calls the clock's tool when its run is offered it, and says so when not) behind
 * `@ag-ui/mcp-apps-middleware`, which offers it the UI tools of the MCP server at `mcpUrl` and, once the run ends with
 * the call pending, calls the tool there: its result, and an `mcp-apps` activity for the app, before RUN_FINISHED.
 */
export function createMcpAppsAgent(mcpUrl: string): AbstractAgent {
  return new ClockAgent().use(new MCPAppsMiddleware({ mcpServers: [{ type: "http", url: mcpUrl, serverId: "clock" }] }));
}

class ClockAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    const { runId, threadId } = input;
    const offered = input.tools.some((tool) => tool.name === "show_clock");
    const events: BaseEvent[] = offered
      ? [
          { type: EventType.TOOL_CALL_START, toolCallId: `clock-${runId}`, toolCallName: "show_clock", parentMessageId: `m-${runId}` } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId: `clock-${runId}`, delta: '{"city":"Oslo"}' } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId: `clock-${runId}` } as BaseEvent,
        ]
      : [
          { type: EventType.TEXT_MESSAGE_START, messageId: `m-${runId}`, role: "assistant" } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m-${runId}`, delta: "I was given no clock tool." } as BaseEvent,
          { type: EventType.TEXT_MESSAGE_END, messageId: `m-${runId}` } as BaseEvent,
        ];
    return new Observable<BaseEvent>((subscriber) => {
      for (const event of [{ type: EventType.RUN_STARTED, runId, threadId } as BaseEvent, ...events, { type: EventType.RUN_FINISHED, runId, threadId } as BaseEvent]) subscriber.next(event);
      subscriber.complete();
    });
  }
}
