import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { scriptedAgent } from "../../src/testing/agentServer";
import { ev } from "../../src/testing/events";
import { runInput } from "../support/runs";

describe("testing kit: scriptedAgent", () => {
  it("answers the n-th run with the n-th scenario over real SSE, then says it has none left", async () => {
    const agent = await scriptedAgent([ev.run(ev.message("m1", "first")), (_input, sse) => (sse.send(ev.runStarted()), sse.send(ev.runFinished()), sse.end())]);
    try {
      const types = async () =>
        (await lastValueFrom(agent.run(runInput(), { signal: new AbortController().signal }).pipe(toArray()))).map((event) => event.type);
      expect(await types()).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
      expect(await types()).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
      expect(await types()).toEqual(["RUN_ERROR"]);
      expect(agent.inputs).toHaveLength(3);
    } finally {
      await agent.close();
    }
  });

  it("tells a response the client closed (a stopped run) from one the script ended", async () => {
    const agent = await scriptedAgent([ev.run(ev.message("m1", "whole")), (_input, sse) => (sse.send(ev.runStarted()), sse.send(ev.textStart("m2")))]);
    try {
      const controller = new AbortController();
      await lastValueFrom(agent.run(runInput(), { signal: controller.signal }));
      await firstValueFrom(agent.run(runInput(), { signal: controller.signal }));
      controller.abort();
      await Promise.all(agent.responses.map((response) => response.closed));
      expect(agent.responses.map((response) => response.closedByClient)).toEqual([false, true]);
    } finally {
      await agent.close();
    }
  });
});
