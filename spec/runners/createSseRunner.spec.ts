import { lastValueFrom } from "rxjs";
import { type AgentServer } from "carbon-agui-rx/testing";
import { startEncodedAgentServer } from "../support/agentServer";
import { AgUiConnectionError, AgUiHttpError, AgUiNotEventStreamError, SseFrameTooLargeError } from "../../src/errors";
import { createSseRunner } from "../../src/runners/createSseRunner";
import { ev } from "../support/builders";
import { collect, collectFirst, runInput, startHttpServer, types, waitUntil } from "../support/runs";

const signal = () => new AbortController().signal;
const answer = [ev.runStarted(), ev.textStart("m1"), ev.text("m1", "Hi"), ev.textEnd("m1"), ev.runFinished()];

describe("createSseRunner", () => {
  let server: AgentServer | undefined;
  afterEach(() => server?.close());

  it("POSTs the run input and streams back the events @ag-ui/encoder wrote", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      for (const event of answer) sse.send(event);
      sse.end();
    });
    const input = runInput({ messages: [{ id: "u1", role: "user", content: "Hello" }] });
    const events = await collect(createSseRunner({ url: server.url })(input, { signal: signal() }));
    expect(events).toEqual(answer);
    expect(server.inputs).toEqual([input]);
    expect(server.responses[0]?.request.headers.accept).toBe("text/event-stream");
  });

  it("parses CRLF framing, comments, keep-alives and ids, and frames split across writes", async () => {
    server = await startEncodedAgentServer(async (_input, sse) => {
      sse.raw(": ping - 2026-11-30 05:00:00\r\n\r\n");
      sse.raw(`id: 1\r\nevent: message\r\ndata: ${JSON.stringify(answer[0])}\r\n\r\n`);
      const frame = `data: ${JSON.stringify(answer[1])}\r\n\r\n`;
      sse.raw(frame.slice(0, 9));
      await new Promise((resolve) => setTimeout(resolve, 10));
      sse.raw(frame.slice(9));
      sse.raw(`data: ${JSON.stringify(answer[2])}\r\n\r\n:\r\n\r\n`);
      sse.end();
    });
    const events = await collect(createSseRunner({ url: server.url })(runInput(), { signal: signal() }));
    expect(events).toEqual(answer.slice(0, 3));
  });

  it("reports a data frame that is not a JSON object to onParseError and goes on", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      sse.send(answer[0]!);
      sse.raw("data: {not json\n\n");
      sse.raw("data: 42\n\n");
      sse.send(answer[4]!);
      sse.end();
    });
    const reported: string[] = [];
    const runner = createSseRunner({ url: server.url, onParseError: (raw) => reported.push(raw) });
    const events = await collect(runner(runInput(), { signal: signal() }));
    expect(types(events)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    expect(reported).toEqual(["{not json", "42"]);
  });

  it("fails with SseFrameTooLargeError when one event outgrows the limit, and closes the connection", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      sse.send(answer[0]!);
      sse.raw(`data: "${"x".repeat(64 * 1024)}`);
    });
    const run = createSseRunner({ url: server.url, maxFrameBytes: 16 * 1024 })(runInput(), { signal: signal() });
    await expect(collect(run)).rejects.toEqual(new SseFrameTooLargeError(16 * 1024));
    await server.responses[0]?.closed;
  });

  it("sends the headers of an object, or of a function called for each run", async () => {
    server = await startEncodedAgentServer((_input, sse) => sse.end());
    await collect(createSseRunner({ url: server.url, headers: { authorization: "Bearer fixed" } })(runInput(), { signal: signal() }));
    let issued = 0;
    const headers = async () => ({ authorization: `Bearer token-${++issued}` });
    const runner = createSseRunner({ url: server.url, headers });
    await collect(runner(runInput(), { signal: signal() }));
    await collect(runner(runInput(), { signal: signal() }));
    expect(server.responses.map((response) => response.request.headers.authorization)).toEqual(["Bearer fixed", "Bearer token-1", "Bearer token-2"]);
  });

  it("uses the fetch it is given", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      sse.send(answer[0]!);
      sse.end();
    });
    const requested: string[] = [];
    const countingFetch: typeof fetch = (url, init) => {
      requested.push(`${init?.method} ${String(url)}`);
      return fetch(url, init);
    };
    const events = await collect(createSseRunner({ url: server.url, fetch: countingFetch })(runInput(), { signal: signal() }));
    expect([types(events), requested]).toEqual([["RUN_STARTED"], [`POST ${server.url}`]]);
  });

  it("closes the HTTP connection when unsubscribed mid-stream", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      sse.send(answer[0]!);
      sse.send(answer[1]!);
    });
    const events = await collectFirst(createSseRunner({ url: server.url })(runInput(), { signal: signal() }), 2);
    expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START"]);
    await server.responses[0]?.closed;
  });

  it("closes the HTTP connection when the signal aborts", async () => {
    server = await startEncodedAgentServer((_input, sse) => sse.send(answer[0]!));
    const controller = new AbortController();
    const run = lastValueFrom(createSseRunner({ url: server.url })(runInput(), { signal: controller.signal }));
    await waitUntil(() => server?.responses.length === 1);
    controller.abort("Stop streaming");
    await expect(run).rejects.toBe("Stop streaming");
    await server.responses[0]?.closed;
  });

  it("fails with AgUiHttpError on a non-2xx answer, with the start of its body", async () => {
    const failing = await startHttpServer((_request, response) => {
      response.writeHead(503, "Service Unavailable", { "content-type": "application/json" });
      response.end(JSON.stringify({ detail: "warming up" }));
    });
    try {
      const run = createSseRunner({ url: failing.url })(runInput(), { signal: signal() });
      await expect(collect(run)).rejects.toEqual(new AgUiHttpError(503, "Service Unavailable", '{"detail":"warming up"}'));
    } finally {
      await failing.close();
    }
  });

  it("reads no more of an error answer's body than the error keeps, whatever the server would send", async () => {
    const MIB = 1024 * 1024;
    let written = 0;
    const endless = await startHttpServer((_request, response) => {
      response.writeHead(502, "Bad Gateway", { "content-type": "text/html" });
      // Up to 256 MiB, a MiB at a time as the client reads: a client that reads it all would take it all.
      const writeMore = () => {
        while (written < 256 * MIB && !response.destroyed) {
          written += MIB;
          if (!response.write("x".repeat(MIB))) return void response.once("drain", writeMore);
        }
        response.end();
      };
      writeMore();
    });
    try {
      const run = createSseRunner({ url: endless.url })(runInput(), { signal: signal() });
      const error = await collect(run).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(AgUiHttpError);
      expect((error as AgUiHttpError).body).toHaveLength(4096);
      expect(written).toBeLessThan(64 * MIB);
    } finally {
      await endless.close();
    }
  });

  it("refuses a maxFrameBytes that is not a positive number (NaN would switch the bound off)", () => {
    for (const maxFrameBytes of [Number.NaN, 0, -1, "1000" as unknown as number]) {
      expect(() => createSseRunner({ url: "http://127.0.0.1:9/", maxFrameBytes })).toThrow(TypeError);
    }
    expect(() => createSseRunner({ url: "http://127.0.0.1:9/", maxFrameBytes: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it("fails with AgUiNotEventStreamError on a 200 answer that is not an event stream (a proxy's sign-in page)", async () => {
    const proxy = await startHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<html><body>Sign in</body></html>");
    });
    try {
      const run = createSseRunner({ url: proxy.url })(runInput(), { signal: signal() });
      const error = await collect(run).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(AgUiNotEventStreamError);
      expect(error).toMatchObject({ status: 200, contentType: "text/html; charset=utf-8", body: "<html><body>Sign in</body></html>" });
    } finally {
      await proxy.close();
    }
  });

  it("reads an event stream whose content type has parameters, or that names none", async () => {
    for (const contentType of ["text/event-stream; charset=utf-8", undefined]) {
      const plain = await startHttpServer((_request, response) => {
        response.writeHead(200, contentType === undefined ? {} : { "content-type": contentType });
        response.end(answer.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""));
      });
      try {
        expect(await collect(createSseRunner({ url: plain.url })(runInput(), { signal: signal() }))).toEqual(answer);
      } finally {
        await plain.close();
      }
    }
  });

  it("fails with AgUiConnectionError when nothing listens", async () => {
    const gone = await startHttpServer(() => undefined);
    await gone.close();
    const run = createSseRunner({ url: gone.url })(runInput(), { signal: signal() });
    await expect(collect(run)).rejects.toBeInstanceOf(AgUiConnectionError);
  });
});
