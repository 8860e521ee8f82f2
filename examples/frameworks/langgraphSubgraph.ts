/**
 * A graph whose node is a compiled streaming subgraph that asks the person (`interrupt()`) halfway: "research" gathers
 * (its model streams what it found, and the node ends), then "archive" says it could read a paid archive and asks
 * first, in the same node, so that a resume runs that node, and its model, again from its start (as LangGraph resumes
 * a node), then sums up; the parent's own model answers after it. Served by langgraphServer.ts as "research".
 */
import "./telemetryOff";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { END, interrupt, MessagesValue, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { ScriptedChatModel, type ScriptedReply } from "./langgraphModel";

const State = new StateSchema({ messages: MessagesValue });
type Update = typeof State.Update;

/** What the subgraph's nodes and the parent's say, each from its own model. */
export const RESEARCH = {
  gathered: ["Gathered ", "three sources ", "on the tides."],
  archive: ["A paid archive ", "may know more."],
  ask: "May I read the paid archive?",
  read: "Read the archive: the moon pulls the sea.",
  skipped: "Left the archive alone.",
  answer: ["Final answer: ", "the moon's pull ", "makes the tides."],
};

/** A node that streams one model's words and adds them as its message. */
async function speak(reply: ScriptedReply, messages: BaseMessage[]): Promise<AIMessageChunk | undefined> {
  let answer: AIMessageChunk | undefined;
  for await (const chunk of await new ScriptedChatModel(() => reply).stream(messages)) answer = answer ? answer.concat(chunk) : chunk;
  return answer;
}

async function gather(state: typeof State.State): Promise<Update> {
  const said = await speak({ text: RESEARCH.gathered }, state.messages);
  return { messages: said ? [said] : [] };
}

/** Streams, then asks: resumed, LangGraph runs it again from its start, so its model streams the same words again. */
async function archive(state: typeof State.State): Promise<Update> {
  const said = await speak({ text: RESEARCH.archive }, state.messages);
  const decision = interrupt({ message: RESEARCH.ask }) as { approved?: unknown } | undefined;
  const outcome = new AIMessage({ id: `ai-${crypto.randomUUID()}`, content: decision?.approved === true ? RESEARCH.read : RESEARCH.skipped });
  return { messages: [...(said ? [said] : []), outcome] };
}

const research = new StateGraph(State).addNode("gather", gather).addNode("archive", archive).addEdge(START, "gather").addEdge("gather", "archive").addEdge("archive", END).compile();

async function answer(state: typeof State.State): Promise<Update> {
  const said = await speak({ text: RESEARCH.answer }, state.messages);
  return { messages: said ? [said] : [] };
}

export const graph = new StateGraph(State).addNode("research", research).addNode("answer", answer).addEdge(START, "research").addEdge("research", "answer").addEdge("answer", END).compile();
