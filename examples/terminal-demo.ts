/**
 * `npm run demo:terminal`: a scripted AG-UI agent served over real server-sent
 * events on 127.0.0.1, answered through CarbonAgUiAdapter into a stand-in for
 * Carbon AI Chat, and printed as the chat a person would see. No API key, no
 * network. (`npm run demo` shows the same agent in the real Carbon web component.)
 */
import { CancellationReason, CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";
import { CarbonRecorder, startAgentServer } from "carbon-agui-rx/testing";
import { pause, scriptedAgent } from "./scripted-conversation";

export async function terminalDemo(print: (line: string) => void = console.log): Promise<void> {
  const server = await startAgentServer(scriptedAgent);
  print(`Scripted AG-UI agent listening on ${server.url}\n`);
  const adapter = new CarbonAgUiAdapter({
    run: createSseRunner({ url: server.url }),
    onStateChange: (state) => print(`(the agent's shared state is now ${JSON.stringify(state)})`),
    // A failed turn is shown in the chat; the page hears of it here too (the default logs it to the console).
    onError: (error) => print(`(reported to onError: ${error.name}: ${error.message})`),
  });
  const carbon = new CarbonRecorder();

  /** Sends `text`; with `stopOnceShown`, presses stop as soon as the chat shows those words (however the deltas were merged). */
  const send = async (text: string, stopOnceShown?: string) => {
    carbon.userSays(text);
    const controller = new AbortController();
    const stopper =
      stopOnceShown === undefined
        ? undefined
        : setInterval(() => {
            if (carbon.transcript().includes(stopOnceShown)) controller.abort(CancellationReason.STOP_STREAMING);
          }, 5);
    try {
      await adapter.sendMessage({ id: `user-${carbon.chunks.length}`, input: { text } }, { signal: controller.signal }, carbon);
    } catch (error) {
      print(`(Carbon would show this message as failed: ${JSON.stringify(error)})\n`);
    } finally {
      clearInterval(stopper);
    }
  };

  try {
    await send("Hi! What are you?");
    await send("Tell me a long story", "in a data centre");
    await send("Now try something that will fail");
    await send("Do you remember what we said?");
    await send("What's the weather in Oslo?");
    await pause(20); // state changes are published once per tick

    print(carbon.transcript());
    print(`\n${carbon.chunks.length} chunks sent to Carbon; responses still waiting for a final response: ${carbon.waitingForFinal.length}`);
    print(`History kept by the adapter: ${adapter.messages.length} messages on thread ${adapter.threadId}`);
  } finally {
    await server.close();
  }
}

if (require.main === module) void terminalDemo();
