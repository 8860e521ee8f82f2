import { CarbonAgUiAdapter, fromAgent, type CarbonAgUiAdapterOptions, type CarbonAgUiError } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonHistoryItem } from "../../src/persistence/restore";
import { createLangGraphAgent, langGraphClient } from "../../examples/frameworks/langgraph";
import { serveAgent } from "../../examples/frameworks/serveAgent";
import { httpThreads } from "../../examples/web/httpThreads";
import { createSseRunner } from "../../src/runners/createSseRunner";
import { Chat } from "./partners";

/** What thread `threadId`'s state on the LangGraph server at `url` holds: its messages as type and words. */
export async function onServer(url: string, threadId: string): Promise<string[]> {
  const { values } = await langGraphClient(url).threads.getState<{ messages?: { type: string; content: unknown }[] }>(threadId);
  return (values.messages ?? []).map((message) => `${message.type}: ${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`);
}

/** Another device on thread `threadId` of the LangGraph server at `url`, with no store: what its chat shows. */
export async function anotherDevice(url: string, threadId: string): Promise<string[]> {
  const errors: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ threadId, coalesce: false, run: fromAgent(createLangGraphAgent(url)), onError: (error) => errors.push(error) });
  const history: CarbonHistoryItem[] = await adapter.loadHistory(new CarbonRecorder());
  expect(errors).toEqual([]);
  return history.map(({ message }) => ("input" in message ? `You: ${message.input.text}` : message.output.generic.map((item) => item.text ?? "").join("")));
}

/**
 * A chat on the LangGraph server at `url` through the demo's HTTP thread API (serveAgent's routes, the page's
 * httpThreads) with `options`: `play` drives it; it reported no error; the endpoint is closed after.
 */
export async function throughDemoThreadApi(url: string, options: Partial<CarbonAgUiAdapterOptions>, play: (chat: Chat) => Promise<void>): Promise<void> {
  const endpoint = await serveAgent(createLangGraphAgent(url));
  try {
    const errors: CarbonAgUiError[] = [];
    const chat = new Chat({ run: createSseRunner({ url: endpoint.url }), threads: httpThreads({ url: endpoint.url }), coalesce: false, ...options, onError: (error) => errors.push(error) });
    await play(chat);
    expect(errors).toEqual([]);
  } finally {
    await endpoint.close();
  }
}
