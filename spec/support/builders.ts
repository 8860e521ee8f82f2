import type { Message } from "@ag-ui/core";
import type { PipelineElement } from "../../src/instructions";

export { carbon, ev } from "carbon-agui-rx/testing";

/** The instructions the mapping operators emit (internal to the pipeline, so not in the testing kit). */
export const instr = {
  textDelta: (itemId: string, text: string): PipelineElement => ({ kind: "item.delta", itemId, item: { response_type: "text", text } }),
  textComplete: (itemId: string, text: string): PipelineElement => ({ kind: "item.complete", itemId, item: { response_type: "text", text } }),
  history: (message: Message): PipelineElement => ({ kind: "history.message", message }),
  reserve: (messageId: string, role: "assistant" | "user" | "system" | "developer" | "reasoning" = "assistant"): PipelineElement => ({ kind: "history.reserve", messageId, role }),
  finished: (): PipelineElement => ({ kind: "turn.end", how: "finished" }),
  stopped: (): PipelineElement => ({ kind: "turn.end", how: "stopped" }),
  failed: (error: Error): PipelineElement => ({ kind: "turn.end", how: "failed", error }),
};
