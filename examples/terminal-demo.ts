/**
 * `npm run demo`: a scripted AG-UI agent served over real server-sent events on
 * 127.0.0.1, answered through CarbonAgUiAdapter into a stand-in for Carbon AI
 * Chat, and printed as the chat a person would see. No API key, no network.
 * (A browser demo with the real Carbon web component replaces this later.)
 */
import type { RunAgentInput } from "@ag-ui/core";
import { CancellationReason, CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";
import { CarbonRecorder, startAgentServer, type SseResponse } from "carbon-agui-rx/testing";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `text` word by word as one assistant message, then ends the run unless told to fail or hang. */
async function streamAnswer(sse: SseResponse, input: RunAgentInput, text: string, ending: "finish" | "fail" | "hang" = "finish") {
  const messageId = `answer-${input.runId}`;
  sse.send({ type: "RUN_STARTED", threadId: input.threadId, runId: input.runId } as never);
  sse.send({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" } as never);
  for (const word of text.split(/(?<= )/)) {
    sse.send({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: word } as never);
    await pause(3);
  }
  if (ending === "hang") return;
  if (ending === "fail") {
    sse.send({ type: "RUN_ERROR", message: "The model is overloaded", code: "overloaded" } as never);
  } else {
    sse.send({ type: "TEXT_MESSAGE_END", messageId } as never);
    sse.send({ type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId } as never);
  }
  sse.end();
}

/** Reasons, calls a weather tool (a live chain-of-thought step), updates shared state, and answers with a Carbon card. */
async function weatherAnswer(sse: SseResponse, input: RunAgentInput) {
  const { threadId, runId } = input;
  const send = (event: object) => sse.send(event as never);
  send({ type: "RUN_STARTED", threadId, runId });
  send({ type: "REASONING_MESSAGE_CHUNK", messageId: `think-${runId}`, delta: "The user wants today's weather in Oslo: " });
  send({ type: "REASONING_MESSAGE_CHUNK", delta: "call the forecast tool." });
  send({ type: "TOOL_CALL_START", toolCallId: `call-${runId}`, toolCallName: "get_forecast", parentMessageId: `tools-${runId}` });
  send({ type: "TOOL_CALL_ARGS", toolCallId: `call-${runId}`, delta: '{"city":"Oslo"}' });
  send({ type: "TOOL_CALL_END", toolCallId: `call-${runId}` });
  await pause(20);
  send({ type: "TOOL_CALL_RESULT", messageId: `result-${runId}`, toolCallId: `call-${runId}`, content: '{"celsius":4,"sky":"sleet"}' });
  send({ type: "STATE_SNAPSHOT", snapshot: { lastCity: "Oslo", lookups: 1 } });
  send({ type: "STATE_DELTA", delta: [{ op: "replace", path: "/lookups", value: 2 }] });
  send({
    type: "CUSTOM",
    name: "carbon.item",
    value: {
      response_type: "card",
      body: [{ response_type: "text", text: "Oslo: 4 °C, sleet" }],
      footer: [{ response_type: "button", button_type: "post_back", label: "Tomorrow?", value: { input: { text: "And tomorrow?" } } }],
    },
  });
  send({ type: "RUN_FINISHED", threadId, runId });
  sse.end();
}

/** Answers by keyword, like the scripted agents in the tests. */
async function scriptedAgent(input: RunAgentInput, sse: SseResponse) {
  const last = input.messages.at(-1);
  const question = typeof last?.content === "string" ? last.content.toLowerCase() : "";
  if (question.includes("weather")) return weatherAnswer(sse, input);
  if (question.includes("story")) {
    return streamAnswer(sse, input, "Once upon a time, in a data centre far away, a very long answer began to stream and stream and stream ", "hang");
  }
  if (question.includes("fail")) return streamAnswer(sse, input, "Let me work that out. The first step is ", "fail");
  if (question.includes("remember")) {
    return streamAnswer(sse, input, `This thread (${input.threadId.slice(0, 8)}…) has ${input.messages.length} messages so far, and I received all of them.`);
  }
  return streamAnswer(sse, input, "I'm a **scripted AG-UI agent**. My answer streams as text deltas into Carbon AI Chat through carbon-agui-rx.");
}

async function main() {
  const server = await startAgentServer(scriptedAgent);
  console.log(`Scripted AG-UI agent listening on ${server.url}\n`);
  const adapter = new CarbonAgUiAdapter({
    run: createSseRunner({ url: server.url }),
    onStateChange: (state) => console.log(`(the agent's shared state is now ${JSON.stringify(state)})`),
  });
  const carbon = new CarbonRecorder();

  const send = async (text: string, stopAfterChunks?: number) => {
    carbon.userSays(text);
    const controller = new AbortController();
    const stopper =
      stopAfterChunks === undefined
        ? undefined
        : setInterval(() => {
            if (carbon.chunks.length >= stopAfterChunks) controller.abort(CancellationReason.STOP_STREAMING);
          }, 2);
    try {
      await adapter.sendMessage({ id: `user-${carbon.chunks.length}`, input: { text } }, { signal: controller.signal }, carbon);
    } catch (error) {
      console.log(`(Carbon would show this message as failed: ${JSON.stringify(error)})\n`);
    } finally {
      clearInterval(stopper);
    }
  };

  await send("Hi! What are you?");
  const before = carbon.chunks.length;
  await send("Tell me a long story", before + 6);
  await send("Now try something that will fail");
  await send("Do you remember what we said?");
  await send("What's the weather in Oslo?");
  await pause(20); // state changes are published once per tick

  console.log(carbon.transcript());
  console.log(`\n${carbon.chunks.length} chunks sent to Carbon; responses still waiting for a final response: ${carbon.waitingForFinal.length}`);
  console.log(`History kept by the adapter: ${adapter.messages.length} messages on thread ${adapter.threadId}`);
  await server.close();
}

void main();
