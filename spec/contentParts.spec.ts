import type { ContentPart, RunAgentInput } from "@ag-ui/core";
import { of } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../src/adapter";
import type { CarbonMessageRequest } from "../src/carbon";
import { describeContent } from "../src/contentParts";
import { replayServerThread } from "./support/threads";
import { ev } from "./support/builders";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const parts: ContentPart[] = [
  { type: "text", text: "What is in these?" },
  { type: "image", source: { type: "url", value: "https://example.com/cat.png", mimeType: "image/png" } },
  { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
  { type: "document", source: { type: "file", value: "file-123", provider: "openai", mimeType: "application/pdf" } },
  { type: "audio", source: { type: "url", value: "data:audio/wav;base64,AAAA" } },
  { type: "video", source: { type: "url", value: "javascript:alert(1)", mimeType: "video/mp4" } },
];

describe("content in parts", () => {
  it("reads as its text, then a line per other part; a data source or a URL that is not the web's is never written out", () => {
    expect(describeContent(parts)).toBe(
      ["What is in these?", "Attached image: https://example.com/cat.png", "Attached image (image/png)", "Attached document (application/pdf)", "Attached audio", "Attached video (video/mp4)"].join("\n"),
    );
    expect(describeContent("plain")).toBe("plain");
    expect(describeContent([{ type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } }])).toBe("Attached image (image/png)");
  });

  it("restores a person's message and a tool's result in parts as a person reads them, and keeps the parts in the history", () => {
    const messages = [
      { id: "u1", role: "user" as const, content: parts },
      { id: "a1", role: "assistant" as const, toolCalls: [{ id: "c1", type: "function" as const, function: { name: "render", arguments: "{}" } }] },
      { id: "t1", role: "tool" as const, toolCallId: "c1", content: [{ type: "text" as const, text: "Rendered." }, { type: "image" as const, source: { type: "data" as const, value: PNG, mimeType: "image/png" } }] },
    ];
    const replayed = replayServerThread({ threadId: "t", messages, state: {}, interrupts: [] });
    expect(replayed.requests[0]).toMatchObject({ input: { text: describeContent(parts) } });
    expect(replayed.responses[0]?.message_options?.chain_of_thought?.[0]?.response).toEqual({ content: "Rendered.\nAttached image (image/png)" });
    expect(replayed.conversation.messages).toEqual(messages);
    expect(JSON.stringify([replayed.requests, replayed.responses])).not.toContain(PNG);
  });

  it("sends a host's message in parts through Carbon: Carbon shows what it reads as, and the agent gets the parts", async () => {
    const inputs: RunAgentInput[] = [];
    const adapter = new CarbonAgUiAdapter({ run: (input) => (inputs.push(input), of(ev.runStarted(), ev.runFinished())) });
    const shown: string[] = [];
    // As Carbon's `send`: the message shows as the person's, then goes to customSendMessage with its id.
    const carbon = Object.assign(new CarbonRecorder(), {
      send: async (request: CarbonMessageRequest) => {
        shown.push(request.input.text ?? "");
        await adapter.sendMessage(request, { signal: new AbortController().signal }, carbon);
      },
    });
    await adapter.sendContent(parts, carbon);
    expect(shown).toEqual([describeContent(parts)]);
    expect(inputs[0]!.messages.at(-1)).toMatchObject({ role: "user", content: parts });
    expect(adapter.messages.at(-1)).toMatchObject({ role: "user", content: parts });
  });
});
