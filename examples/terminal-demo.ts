/**
 * `npm run demo`: a scripted AG-UI agent served over real server-sent events on
 * 127.0.0.1, answered through CarbonAgUiAdapter into a stand-in for Carbon AI
 * Chat, and printed as the chat a person would see. No API key, no network.
 * (A browser demo with the real Carbon web component replaces this later.)
 */
import { CancellationReason, CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";
import { CarbonRecorder, startAgentServer } from "carbon-agui-rx/testing";
import { pause, scriptedAgent } from "./scripted-conversation";

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
