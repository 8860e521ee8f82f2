/**
 * A LangGraph supervisor with two workers (`@langchain/langgraph-supervisor`), each on a scripted chat model: the
 * supervisor hands the question to the researcher, who searches and writes notes, then to the writer, who drafts, then
 * answers itself. A question asking for a fact-check ("… and fact-check it") has the writer call `check_facts`, which
 * throws (the checker is down): LangGraph hands the error to the writer, who says so, and the supervisor answers (the
 * stream carries no result for the call, and the supervisor's state only the writer's last words). Served by examples/frameworks/langgraphServer.ts as "team" (the swarm below as "swarm", the
 * supervisor whose worker asks the person first as "ops").
 */
import "./telemetryOff";
import { tool } from "@langchain/core/tools";
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createSupervisor } from "@langchain/langgraph-supervisor";
import { createHandoffTool, createSwarm } from "@langchain/langgraph-swarm";
import { z } from "zod/v4";
import { ScriptedChatModel, type ScriptedReply } from "./langgraphModel";

/** Whether `messages` hold the result of a call to `name`. */
const answered = (messages: BaseMessage[], name: string) => messages.some((message) => message instanceof ToolMessage && message.name === name);
/** Where the person's latest question is in `messages`. */
const lastQuestion = (messages: BaseMessage[]) => messages.map((message) => message.getType()).lastIndexOf("human");
const lastText = (messages: BaseMessage[]) => String(messages[lastQuestion(messages)]?.content ?? "");

const search = tool(async ({ query }: { query: string }) => `3 sources on ${query}`, { name: "search", description: "Searches the web", schema: z.object({ query: z.string() }) });

/** Calls a tool once per turn: `calls` ids are made from the question's place in the conversation, so each turn's call is new. */
const callId = (messages: BaseMessage[], name: string) => `${name}-${messages.filter((message) => message.getType() === "human").length}`;

const researcher = createReactAgent({
  llm: new ScriptedChatModel((messages): ScriptedReply => (answered(messages.slice(-1), "search") ? { text: ["Research notes: ", "the moon pulls ", "the sea."] } : { toolCalls: [{ id: callId(messages, "search"), name: "search", args: { query: lastText(messages) } }] })),
  tools: [search],
  name: "researcher",
});
/** The writer's fact-checker, which is down. */
const checkFacts = tool(
  async (): Promise<string> => {
    throw new Error("The fact-checking service is down");
  },
  { name: "check_facts", description: "Checks a draft's facts", schema: z.object({ draft: z.string() }) },
);
const DRAFT = ["Draft: ", "tides rise and fall ", "twice a day."];
const writer = createReactAgent({
  llm: new ScriptedChatModel((messages): ScriptedReply => {
    if (answered(messages.slice(-1), "check_facts")) return { text: ["I could not check the draft: ", "the fact-checker failed."] };
    if (/fact-check/i.test(lastText(messages))) return { toolCalls: [{ id: callId(messages, "check_facts"), name: "check_facts", args: { draft: DRAFT.join("") } }] };
    return { text: DRAFT };
  }),
  tools: [checkFacts],
  name: "writer",
});

/** The supervisor's script: the researcher first, the writer next, then its own answer. */
function supervise(messages: BaseMessage[]): ScriptedReply {
  const sinceQuestion = messages.slice(lastQuestion(messages));
  if (!answered(sinceQuestion, "transfer_to_researcher")) return { toolCalls: [{ id: callId(messages, "transfer_to_researcher"), name: "transfer_to_researcher", args: {} }] };
  if (!answered(sinceQuestion, "transfer_to_writer")) return { toolCalls: [{ id: callId(messages, "transfer_to_writer"), name: "transfer_to_writer", args: {} }] };
  return { text: ["Final answer: ", "the moon's pull ", "makes the tides."] };
}

export const graph = createSupervisor({ agents: [researcher, writer], llm: new ScriptedChatModel(supervise) }).compile();

/** A swarm (`@langchain/langgraph-swarm`): Alice hands the conversation to Bob, who answers the person. Served as "swarm". */
const alice = createReactAgent({
  llm: new ScriptedChatModel((messages): ScriptedReply => ({ toolCalls: [{ id: callId(messages, "transfer_to_bob"), name: "transfer_to_bob", args: {} }] })),
  // The swarm's handoff returns a Command, which createReactAgent's tool type does not name.
  tools: [createHandoffTool({ agentName: "bob", description: "Hands the conversation to Bob" }) as never],
  name: "alice",
});
const bob = createReactAgent({ llm: new ScriptedChatModel((): ScriptedReply => ({ text: ["Bob here: ", "the tides follow the moon."] })), tools: [], name: "bob" });
export const swarm = createSwarm({ agents: [alice, bob], defaultActiveAgent: "alice" }).compile();

/**
 * A supervisor whose worker asks the person before it acts: the cleaner says what it will do and calls `delete_files`,
 * whose `interrupt()` waits for the person's approval (the run ends on it); resumed, the tool deletes or not, the
 * cleaner says what it did, and the supervisor answers. Served as "ops".
 */
const deleteFiles = tool(
  async ({ pattern }: { pattern: string }, config: { toolCall?: { id?: string } }) => {
    const decision = interrupt({ message: `Delete the files matching ${pattern}?`, toolCallId: config.toolCall?.id }) as { approved?: unknown } | undefined;
    return decision?.approved === true ? `Deleted the files matching ${pattern}.` : "Nothing was deleted.";
  },
  { name: "delete_files", description: "Deletes files, once the person approves", schema: z.object({ pattern: z.string() }) },
);
const cleaner = createReactAgent({
  llm: new ScriptedChatModel((messages): ScriptedReply =>
    answered(messages.slice(-1), "delete_files") ? { text: ["Cleaned up: ", "the temp files are gone."] } : { text: ["I will delete ", "the temp files."], toolCalls: [{ id: callId(messages, "delete_files"), name: "delete_files", args: { pattern: "*.tmp" } }] },
  ),
  tools: [deleteFiles],
  name: "cleaner",
});
export const ops = createSupervisor({
  agents: [cleaner],
  llm: new ScriptedChatModel((messages): ScriptedReply => {
    if (!answered(messages.slice(lastQuestion(messages)), "transfer_to_cleaner")) return { toolCalls: [{ id: callId(messages, "transfer_to_cleaner"), name: "transfer_to_cleaner", args: {} }] };
    return { text: ["Final answer: ", "your temp files are taken care of."] };
  }),
}).compile();
