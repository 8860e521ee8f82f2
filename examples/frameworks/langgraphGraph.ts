/**
 * The LangGraph.js graph the LangGraph API server runs for spec/frameworks
 * and `npm run demo:langgraph`: a scripted streaming chat model that answers
 * by keyword, a backend tool, a node that asks a person before it deletes
 * files (`interrupt()`), two that ask at once, and one that throws. The
 * tool message a confirming node adds carries what its `interrupt()`
 * returned, as `received`: a test reads what the graph got in the thread's state.
 */
import { dirname, join } from "node:path";
import { tool } from "@langchain/core/tools";
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { END, interrupt, MessagesValue, START, StateGraph, StateSchema, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod/v4";
import { ScriptedChatModel, type ScriptedReply } from "./langgraphModel";

/** The content of a confirming node's tool message: what it did, and what its `interrupt()` returned under its id. */
export interface ConfirmedCall {
  done: boolean;
  args?: Record<string, unknown>;
  interruptId: string;
  received: unknown;
}

const State = new StateSchema({ messages: MessagesValue });
type Update = typeof State.Update;

const getWeather = tool(async ({ city }: { city: string }) => JSON.stringify({ city, forecast: "sunny", celsius: 21 }), {
  name: "get_weather",
  description: "The weather in a city",
  schema: z.object({ city: z.string() }),
});

/** The demo's long answer, streamed slowly enough to press stop in the middle. */
export const STORY = ["Once upon a time ", "there was ", "a graph ", "that told ", "a very ", "long story, ", "one word ", "at a time, ", "until ", "someone ", "pressed ", "stop."];

const textOf = (message: BaseMessage | undefined) => (typeof message?.content === "string" ? message.content : "");

/**
 * With `CARBON_AGUI_STORY_GATE` (a URL; the browser tests set it), each chunk of the story after the first waits for
 * `GET <gate>/<chunk>` to be answered: the test drives the story's pace, whatever the machine's speed.
 */
function storyGate(): Pick<ScriptedReply, "gate"> {
  const gate = process.env.CARBON_AGUI_STORY_GATE;
  return gate ? { gate: (chunk) => fetch(`${gate}/${chunk}`).then((response) => void response.body?.cancel()) } : {};
}

/** The model's answer, by keyword in the person's latest message (after a tool result: a sentence about it). */
export function scriptedReply(messages: BaseMessage[]): ScriptedReply {
  const last = messages[messages.length - 1];
  if (last?.getType() === "tool") return { text: ["It is ", "sunny in ", "Paris, 21 °C."] };
  const said = textOf([...messages].reverse().find((message) => message.getType() === "human"));
  const id = () => `call-${crypto.randomUUID().slice(0, 8)}`;
  if (/weather/i.test(said)) return { text: ["Let me check."], toolCalls: [{ id: id(), name: "get_weather", args: { city: "Paris" } }] };
  if (/tidy/i.test(said)) {
    return {
      text: ["Two things need your approval."],
      toolCalls: [
        { id: id(), name: "delete_files", args: { pattern: "*.tmp" } },
        { id: id(), name: "send_email", args: { to: "team@example.com" } },
      ],
    };
  }
  if (/delete/i.test(said)) return { text: ["I need your approval first."], toolCalls: [{ id: id(), name: "delete_files", args: { pattern: "*.tmp" } }] };
  if (/inventory/i.test(said)) return { text: ["Let me count."], toolCalls: [{ id: id(), name: "check_inventory", args: {} }] };
  if (/story/i.test(said)) return { text: STORY, pauseMs: 150, ...storyGate() };
  if (/suggest a name/i.test(said)) return { text: ["How about ", `${nextName(`${[...messages].reverse().find((message) => message.getType() === "human")?.id ?? ""}/${said}`)}?`] };
  return { text: ["You said: ", said || "(nothing)"] };
}

/** The names the graph suggests, one more each time the same question (its message id and words) is answered again (a regenerate). */
export const GRAPH_NAMES = ["Biscuit", "Pixel", "Marmalade", "Nimbus"];
const namesGiven = new Map<string, number>();
function nextName(questionId: string): string {
  const given = namesGiven.get(questionId) ?? 0;
  namesGiven.set(questionId, given + 1);
  return GRAPH_NAMES[given % GRAPH_NAMES.length]!;
}

const model = new ScriptedChatModel(scriptedReply);

async function agent(state: typeof State.State): Promise<Update> {
  let answer: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(state.messages)) answer = answer ? answer.concat(chunk) : chunk;
  return { messages: answer ? [answer] : [] };
}

const routes: Record<string, string> = { get_weather: "tools", delete_files: "confirm_delete", send_email: "confirm_email", check_inventory: "inventory" };

function route(state: typeof State.State): string[] {
  const last = state.messages[state.messages.length - 1] as AIMessage | undefined;
  const next = (last?.tool_calls ?? []).map((call) => routes[call.name]).filter((node): node is string => node !== undefined);
  return next.length > 0 ? [...new Set(next)] : [END];
}

// LangGraph's interrupt id: its hash of the node's checkpoint namespace (see interrupt() in @langchain/langgraph).
// A node needs it to find its own answer among several (parallel interrupts share one resume map).
const { XXH3 } = require(join(dirname(require.resolve("@langchain/langgraph")), "hash.cjs")) as { XXH3: (text: string) => string };

/** A person's answer as this node's `interrupt()` returned it: approved (with the arguments, maybe edited) or not. */
function decisionFor(value: unknown, interruptId: string): { approved: boolean; args?: Record<string, unknown> } {
  const record = (value ?? {}) as Record<string, unknown>;
  const map = record.__agui_resume_map__ as Record<string, { status: string; payload?: unknown }> | undefined;
  if (map) {
    const own = map[interruptId];
    return own?.status === "resolved" ? decisionFor(own.payload, interruptId) : { approved: false };
  }
  if (record.__agui_cancelled__ === true || record.approved !== true) return { approved: false };
  return record.args && typeof record.args === "object" ? { approved: true, args: record.args as Record<string, unknown> } : { approved: true };
}

/** A node that asks before it runs the tool call `name` of the last answer, then says what it did. */
function confirming(name: string, ask: (args: Record<string, unknown>) => string, done: (args: Record<string, unknown>) => string, skipped: string) {
  return (state: typeof State.State, config: LangGraphRunnableConfig): Update => {
    const asking = [...state.messages].reverse().find((message) => message.getType() === "ai") as AIMessage | undefined;
    const call = asking?.tool_calls?.find((candidate) => candidate.name === name);
    if (!call?.id) throw new Error(`No ${name} call to confirm`);
    const interruptId = XXH3(String(config.configurable?.checkpoint_ns));
    const value: unknown = interrupt({ message: ask(call.args), toolCallId: call.id });
    const decision = decisionFor(value, interruptId);
    const args = decision.args ?? call.args;
    const result: ConfirmedCall = decision.approved ? { done: true, args, interruptId, received: value } : { done: false, interruptId, received: value };
    return {
      messages: [
        new ToolMessage({ tool_call_id: call.id, name, content: JSON.stringify(result) }),
        new AIMessage({ id: `ai-${crypto.randomUUID()}`, content: decision.approved ? done(args) : skipped }),
      ],
    };
  };
}

function inventory(): Update {
  throw new Error("The inventory service is down");
}

export const graph = new StateGraph(State)
  .addNode("agent", agent)
  .addNode("tools", new ToolNode([getWeather]))
  .addNode(
    "confirm_delete",
    confirming("delete_files", (args) => `Delete the files matching ${String(args.pattern)}?`, (args) => `Deleted the files matching ${String(args.pattern)}.`, "OK, I did not delete anything."),
  )
  .addNode("confirm_email", confirming("send_email", (args) => `Email ${String(args.to)}?`, (args) => `Emailed ${String(args.to)}.`, "OK, no email."))
  .addNode("inventory", inventory)
  .addEdge(START, "agent")
  .addConditionalEdges("agent", route, ["tools", "confirm_delete", "confirm_email", "inventory", END])
  .addEdge("tools", "agent")
  .addEdge("confirm_delete", END)
  .addEdge("confirm_email", END)
  .addEdge("inventory", END)
  .compile();
