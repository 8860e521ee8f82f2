import "./telemetryOff";
import { BuiltInAgent, convertMessagesToVercelAISDKMessages } from "@copilotkit/runtime/v2";
import { jsonSchema, stepCountIs, streamText, tool, type LanguageModel, type Tool } from "ai";
import type { ToolClient } from "carbon-agui-rx/tool-client";
import type { ModelReply } from "./scriptedModel";

/**
 * An AI SDK agent in CopilotKit's runtime (a `BuiltInAgent` in factory mode:
 * the factory runs `streamText` itself) whose tools are the tool server's,
 * through `ToolClient.asVercelTools`: every call belongs to the AG-UI run
 * (`runId`, `threadId`), so the tool server's run is the agent's. A tool that
 * needs a reviewer (the reference server's `send_email`) gives the model
 * `{ "pending_approval": "apr_…" }`; the Carbon adapter, with a reviewer's
 * `ToolClient`, turns that into a decision card and answers the next run with
 * the tool's real result in place of it.
 */
export function createApprovalsAgent(model: LanguageModel, tools: ToolClient): BuiltInAgent {
  return new BuiltInAgent({
    type: "aisdk",
    factory: async ({ input, abortSignal }) =>
      streamText({
        model,
        abortSignal,
        system: "You send e-mails for the person, with the send_email tool.",
        messages: convertMessagesToVercelAISDKMessages(input.messages),
        // Named, the tool type is the SDK's own: its generic `tool` alone would be inferred as Tool<never, never>.
        tools: await tools.asVercelTools<Tool>(tool, jsonSchema, { runId: input.runId, threadId: input.threadId, tags: ["email"], signal: abortSignal }),
        stopWhen: stepCountIs(5),
      }),
  });
}

type Prompt = Parameters<ModelReply>[0]["prompt"];

/** The last tool result in the prompt, as the value the tool gave (JSON parsed when it is a string). */
function lastToolResult(prompt: Prompt): unknown {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index]!;
    if (message.role === "user") return undefined;
    if (message.role !== "tool") continue;
    const part = [...message.content].reverse().find((content) => content.type === "tool-result");
    if (part === undefined || part.type !== "tool-result") continue;
    const value = part.output.type === "json" || part.output.type === "text" ? part.output.value : part.output;
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The approvals demo's scripted model. Asked to e-mail someone, it calls
 * `send_email` with the address it finds and the subject "Weekly report".
 * After a tool result (since the person last spoke) it answers from it: a
 * pending approval, the e-mail sent (to whom, cc whom), or the reviewer's no.
 */
export const approvalsReply: ModelReply = ({ prompt }) => {
  const outcome = lastToolResult(prompt) as { pending_approval?: string; status?: string; reason?: string | null; result?: { to?: string; cc?: string | null }; decided_elsewhere?: boolean } | undefined;
  if (outcome !== undefined) {
    if (outcome.pending_approval !== undefined) return { text: ["This e-mail needs a reviewer's approval ", "before it goes out."] };
    if (outcome.status === "denied") return { text: ["I did not send the e-mail: ", outcome.reason ? `the reviewer said "${outcome.reason}".` : "the reviewer said no."] };
    if (outcome.status === "ok" && outcome.result) {
      const { to, cc } = outcome.result;
      return { text: [`Sent the weekly report to ${to}`, cc ? `, with ${cc} in cc.` : "."] };
    }
    if (outcome.decided_elsewhere) return { text: ["Another reviewer already decided on this e-mail."] };
    return { text: [`The tool answered: ${JSON.stringify(outcome)}`] };
  }
  const last = prompt[prompt.length - 1];
  const said = last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join(" ") : "";
  const to = /[\w.+-]+@[\w-]+(\.[\w-]+)+/.exec(said)?.[0];
  if (/e-?mail|send/i.test(said)) {
    if (to === undefined) return { text: ["To which address?"] };
    return { text: ["I'll e-mail the weekly report."], toolCalls: [{ id: `call-${Date.now()}`, name: "send_email", args: { to, subject: "Weekly report" } }] };
  }
  return { text: ["I can send e-mails: try \"send the weekly report by e-mail to ops@example.com\"."] };
};
