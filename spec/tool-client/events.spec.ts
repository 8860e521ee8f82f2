import fc from "fast-check";
import { asyncScheduler, concat, EMPTY, of, throwError, type Observable } from "rxjs";
import type { ColdObservable } from "rxjs/internal/testing/ColdObservable";
import type { RunHelpers } from "rxjs/internal/testing/TestScheduler";
import { EventStreamError, errorFromProblem, NotFoundError, ToolTransportError } from "../../src/tool-client/errors";
import { resumableEvents, type ResumeSettings, type ServerEvent, type StreamItem } from "../../src/tool-client/events";
import { testScheduler } from "../support/marbles";

const frame = (id: string | undefined, event: string | undefined, data: unknown): StreamItem => ({
  kind: "frame",
  frame: { id, event, data: data === undefined ? undefined : JSON.stringify(data) },
});
const ev = (id: string | undefined, event: string, data: unknown): ServerEvent => ({ id, event, data });

// Items a connection yields, by marble letter.
const items: Record<string, StreamItem> = {
  a: frame("1", "tool.started", { n: 1 }),
  b: frame("2", "tool.progress", { n: 2 }),
  c: frame("3", "tool.progress", { n: 3 }),
  B: frame("2", "tool.progress", { n: 2, changed: true }),
  f: frame("4", "tool.finished", { n: 4 }),
  e: frame("5", "end", {}),
  E: frame(undefined, "end", undefined),
  i: frame("9", undefined, undefined),
  k: { kind: "bytes", framePending: false },
  p: { kind: "bytes", framePending: true },
  n: frame(undefined, "note", { note: 1 }),
  r: { kind: "retry", milliseconds: 2_000 },
  R: { kind: "retry", milliseconds: 2 ** 31 + 10 },
  Z: { kind: "retry", milliseconds: 0 },
  x: { kind: "frame", frame: { id: "7", event: "tool.progress", data: "{oops secret" } },
};
// What the result delivers, by marble letter.
const out: Record<string, ServerEvent> = {
  a: ev("1", "tool.started", { n: 1 }),
  b: ev("2", "tool.progress", { n: 2 }),
  c: ev("3", "tool.progress", { n: 3 }),
  B: ev("2", "tool.progress", { n: 2, changed: true }),
  f: ev("4", "tool.finished", { n: 4 }),
  e: ev("5", "end", {}),
  E: ev(undefined, "end", null),
  n: ev(undefined, "note", { note: 1 }),
};

const settings = (overrides: Partial<ResumeSettings> = {}): ResumeSettings => ({
  closeOn: new Set(),
  lastEventId: undefined,
  idleTimeoutMs: 45_000,
  retry: { maxRetries: 2, baseDelayMs: 1_000, maxDelayMs: 10_000 },
  scheduler: asyncScheduler,
  random: () => 0,
  ...overrides,
});

const drop = new ToolTransportError("reset", "network", true);

/** Connections that play `marbles` in turn, recording the Last-Event-ID each was opened with. */
function connections(helpers: RunHelpers, marbles: string[], errors: Record<string, unknown> = {}) {
  const opened: (string | undefined)[] = [];
  const cold: ColdObservable<StreamItem>[] = marbles.map((marble) => helpers.cold(marble, items, errors["#"] ?? drop));
  const connect = (lastEventId: string | undefined): Observable<StreamItem> => {
    opened.push(lastEventId);
    const next = cold[opened.length - 1];
    if (!next) throw new Error(`connection ${opened.length} was not planned`);
    return next;
  };
  return { connect, opened, cold };
}

describe("resumableEvents", () => {
  it("delivers the events and completes at the end event, after one connection", () => {
    testScheduler().run((helpers) => {
      const { connect, opened, cold } = connections(helpers, ["-a-k-b--e-c"]);
      helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a---b--(e|)", out);
      helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^-------!");
      helpers.flush();
      expect(opened).toEqual([undefined]);
    });
  });

  it("completes after an event named in closeOn, closing the connection", () => {
    testScheduler().run((helpers) => {
      const { connect, cold } = connections(helpers, ["-a-f-b"]);
      helpers.expectObservable(resumableEvents(connect, settings({ closeOn: new Set(["tool.finished"]) }))).toBe("-a-(f|)", out);
      helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^--!");
    });
  });

  it("completes at a data-less end event, and lets an id-only frame move the Last-Event-ID", () => {
    testScheduler().run((helpers) => {
      const { connect, opened } = connections(helpers, ["-a-i-#", "-E"]);
      helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a--- 999ms --(E|)", out);
      helpers.flush();
      expect(opened).toEqual([undefined, "9"]);
    });
  });

  it("closes the connection when unsubscribed", () => {
    testScheduler().run((helpers) => {
      const { connect, cold } = connections(helpers, ["-a-b-c-e"]);
      helpers.expectObservable(resumableEvents(connect, settings()), "^--!").toBe("-a-", out);
      helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^--!");
    });
  });

  it("closes a connection waiting for its backoff when unsubscribed: no reconnect happens", () => {
    testScheduler().run((helpers) => {
      const { connect, opened } = connections(helpers, ["-a#", "-e"]);
      helpers.expectObservable(resumableEvents(connect, settings()), "^-- 500ms !").toBe("-a-", out);
      helpers.flush();
      expect(opened).toHaveLength(1);
    });
  });

  describe("reconnecting", () => {
    it("reconnects after a drop with backoff, sending the last id seen", () => {
      testScheduler().run((helpers) => {
        const { connect, opened, cold } = connections(helpers, ["-a-b#", "-c-e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ lastEventId: "0" }))).toBe("-a-b 999ms --c-(e|)", out);
        helpers.expectSubscriptions(cold[1]!.subscriptions).toBe("---- 1000ms ^--!");
        helpers.flush();
        expect(opened).toEqual(["0", "2"]);
      });
    });

    it("reconnects when the server closes the stream without its end event", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a|", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a 999ms --(e|)", out);
        helpers.flush();
        expect(opened).toEqual([undefined, "1"]);
      });
    });

    it("times out after exactly idleTimeoutMs of silence (45 s by default) and reconnects", () => {
      testScheduler().run((helpers) => {
        const { connect, cold } = connections(helpers, ["-a", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a 45s 999ms -(e|)", out);
        helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^- 44999ms !");
      });
    });

    it("keeps the connection while keep-alives arrive, however long the silence between events", () => {
      testScheduler().run((helpers) => {
        const keepAlives = Array.from({ length: 8 }, () => "15s k").join(" ");
        const { connect, opened } = connections(helpers, [`-a ${keepAlives} 44999ms e`]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe(`-a ${Array.from({ length: 8 }, () => "15s -").join(" ")} 44999ms (e|)`, out);
        helpers.flush();
        expect(opened).toHaveLength(1);
      });
    });

    it("holds an unfinished event to idleTimeoutMs from its first byte: bytes dribbled into it do not hold the timer off", () => {
      testScheduler().run((helpers) => {
        const dribble = Array.from({ length: 20 }, () => "p 49ms").join(" ");
        const { connect, cold } = connections(helpers, [`-a ${dribble}`, "-e"]);
        // The frame began at 2 ms; 500 ms later the connection is given up on, though a byte came 49 ms before.
        helpers.expectObservable(resumableEvents(connect, settings({ idleTimeoutMs: 500 }))).toBe("-a 500ms 1000ms -(e|)", out);
        helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^-- 499ms !");
      });
    });

    it("does not count silence while the consumer holds reading back (demand paused), and counts again after", () => {
      testScheduler().run((helpers) => {
        let paused = true;
        const demand = { wait: () => undefined, paused: () => paused };
        helpers.cold("100s x").subscribe(() => (paused = false));
        const { connect, opened } = connections(helpers, ["-a"]);
        // Paused for the first 100 s: checks at 45 s and 90 s find it paused and restart the count, so it fires at 135 s.
        const events = resumableEvents(connect, settings({ retry: false, demand }));
        helpers.expectObservable(events).toBe("-a 134998ms #", out, new ToolTransportError("The event stream was silent for 45000 ms", "timeout", true));
        helpers.flush();
        expect(opened).toHaveLength(1);
      });
    });

    it("caps the server's retry: below 2^31 ms, even with maxDelayMs: Infinity (a timer would fire at once)", () => {
      testScheduler().run((helpers) => {
        const { connect, cold } = connections(helpers, ["-R-a#", "-e"]);
        const events = resumableEvents(connect, settings({ retry: { maxRetries: Infinity, baseDelayMs: 1_000, maxDelayMs: Infinity } }));
        helpers.expectObservable(events).toBe("---a 2147483646ms --(e|)", out);
        helpers.flush();
        expect(cold[1]!.subscriptions[0]!.subscribedFrame).toBe(4 + 2 ** 31 - 1);
      });
    });

    it("never times out with idleTimeoutMs: Infinity", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a 1000000ms e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ idleTimeoutMs: Infinity }))).toBe("-a 1000000ms (e|)", out);
        helpers.flush();
        expect(opened).toHaveLength(1);
      });
    });

    it("backs off from the server's retry: when reconnects fail in a row, so retry: 0 cannot make a tight loop", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-Z-a#", "#", "#", "-e"]);
        // retry: 0, then 2 s and 4 s of backoff (baseDelayMs 1 s, no jitter) for the second and third failures in a row.
        const events = resumableEvents(connect, settings({ retry: { maxRetries: 5, baseDelayMs: 1_000, maxDelayMs: 10_000 } }));
        helpers.expectObservable(events).toBe("---a 2s 4s -(e|)", out);
      });
    });

    it("waits the server's retry: instead of its own backoff, capped at maxDelayMs", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-r-a#", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("---a 1999ms --(e|)", out);
      });
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-r-a#", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ retry: { maxRetries: 2, baseDelayMs: 1_000, maxDelayMs: 1_500 } }))).toBe("---a 1499ms --(e|)", out);
      });
    });

    it("backs off exponentially while reconnects fail in a row", () => {
      testScheduler().run((helpers) => {
        const { connect, cold } = connections(helpers, ["-a#", "#", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a 1s 2s -(e|)", out);
        helpers.expectSubscriptions(cold[1]!.subscriptions).toBe("-- 1s (^!)");
        helpers.expectSubscriptions(cold[2]!.subscriptions).toBe("-- 1s 2s ^!");
      });
    });

    it("sends the Last-Event-ID on every reconnect, including ones that die before a new id", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a-b#", "-#", "k#", "-c-e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ retry: { maxRetries: 3, baseDelayMs: 1_000, maxDelayMs: 10_000 } }))).toBe("-a-b 1s 2s 4s 2ms -c-(e|)", out);
        helpers.flush();
        expect(opened).toEqual([undefined, "2", "2", "2"]);
      });
    });

    it("gives up with ToolTransportError after maxRetries reconnects without a new event", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a#", "#", "#"]);
        const result = resumableEvents(connect, settings());
        helpers.expectObservable(result).toBe("-a 1s 2s #", out, new ToolTransportError("The event stream failed 3 times in a row without a new event", "network", true));
        helpers.flush();
        expect(opened).toHaveLength(3);
      });
    });

    it("counts only reconnects without progress: a new event resets the count", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a#", "#", "-b#", "#", "-c#", "#", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a 1s 2s -b 1s 2s -c 1s 2s -(e|)", out);
        helpers.flush();
        expect(opened).toEqual([undefined, "1", "1", "2", "2", "3", "3"]);
      });
    });

    it("does not count a replayed event as progress", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a-b#", "-b#", "-b#"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a-b 1s -- 2s --#", out, new ToolTransportError("The event stream failed 3 times in a row without a new event", "network", true));
      });
    });

    it("follows the GET policy on an HTTP error: a 503 with Retry-After is waited for, a 404 is raised at once", () => {
      const unavailable = errorFromProblem({ type: "about:blank" }, 503, 5_000);
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a#", "-e"], { "#": unavailable });
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a 5s -(e|)", out);
      });
      const notFound = errorFromProblem({ type: "about:blank", kind: "run-not-found" }, 404);
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a#", "-e"], { "#": notFound });
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a#", out, notFound);
        helpers.flush();
        expect(opened).toHaveLength(1);
        expect(notFound).toBeInstanceOf(NotFoundError);
      });
    });

    it("never reconnects when retry is false", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a#", "-e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ retry: false }))).toBe("-a#", out, drop);
      });
    });
  });

  describe("skipping replays after a reconnect", () => {
    it("skips the events the server replays, up to the first new one", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a-b#", "-a-b-c-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a-b 999ms ------c-(e|)", out);
      });
    });

    it("delivers a changed payload under a replayed id", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a-b#", "-a-B-c-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a-b 999ms ----B-c-(e|)", out);
      });
    });

    it("stops skipping at the first new event: a replay after it is delivered again", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a-b#", "-b-c-a-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a-b 999ms ----c-a-(e|)", out);
      });
    });

    it("delivers an event without an id (it cannot be recognised) and goes on skipping: replaying a, n, b, c delivers b and c once", () => {
      testScheduler().run((helpers) => {
        const { connect } = connections(helpers, ["-a-n-b-c#", "-a-n-b-c-e"]);
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a-n-b-c 999ms ----n-----(e|)", out);
      });
    });

    it("never skips an event whose id is longer than 256 characters", () => {
      const longId = "x".repeat(257);
      const long = frame(longId, "tool.progress", { n: 1 });
      testScheduler().run((helpers) => {
        const first = helpers.cold("-l#", { l: long }, drop);
        const second = helpers.cold("-l-e", { l: long, e: items.e! });
        const planned = [first, second];
        const result = resumableEvents(() => planned.shift()!, settings());
        const delivered = ev(longId, "tool.progress", { n: 1 });
        helpers.expectObservable(result).toBe("-l 999ms --l-(e|)", { l: delivered, e: out.e! });
      });
    });

    it("does not count a replayed long id as progress: a server replaying it forever is given up on", () => {
      const long = frame("x".repeat(300), "tool.progress", { n: 1 });
      testScheduler().run((helpers) => {
        const planned = ["-l#", "-l#", "-l#"].map((marble) => helpers.cold(marble, { l: long }, drop));
        const result = resumableEvents(() => planned.shift()!, settings());
        const delivered = ev("x".repeat(300), "tool.progress", { n: 1 });
        helpers.expectObservable(result).toBe("-l 999ms --l 2000ms -l#", { l: delivered }, new ToolTransportError("The event stream failed 3 times in a row without a new event", "network", true));
      });
    });

    it("skips nothing on the first connection, even when resuming from a given id", () => {
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a-a-e"]);
        helpers.expectObservable(resumableEvents(connect, settings({ lastEventId: "0" }))).toBe("-a-a-(e|)", out);
        helpers.flush();
        expect(opened).toEqual(["0"]);
      });
    });
  });

  describe("bad input", () => {
    it("raises EventStreamError naming the event id, not the content, for data that is not JSON, without reconnecting", () => {
      testScheduler().run((helpers) => {
        const { connect, opened, cold } = connections(helpers, ["-a-x-e"]);
        let failure: unknown;
        resumableEvents(connect, settings()).subscribe({ error: (error: unknown) => (failure = error) });
        helpers.flush();
        expect(failure).toBeInstanceOf(EventStreamError);
        expect((failure as EventStreamError).eventId).toBe("7");
        expect((failure as Error).message).toContain('"7"');
        expect((failure as Error).message).not.toContain("secret");
        expect(opened).toHaveLength(1);
        helpers.expectSubscriptions(cold[0]!.subscriptions).toBe("^--!");
      });
    });

    it("raises an EventStreamError from the connection (an event over maxEventSize) without reconnecting", () => {
      const tooLarge = new EventStreamError("too large");
      testScheduler().run((helpers) => {
        const { connect, opened } = connections(helpers, ["-a#", "-e"], { "#": tooLarge });
        helpers.expectObservable(resumableEvents(connect, settings())).toBe("-a#", out, tooLarge);
        helpers.flush();
        expect(opened).toHaveLength(1);
      });
    });
  });
});

describe("resumableEvents, property: drops and replays", () => {
  it("delivers every event exactly once and in order, whatever the server drops and replays", () => {
    const plan = fc.record({
      total: fc.integer({ min: 1, max: 60 }),
      // Each connection: how far back the server starts replaying, and how many events it sends before dropping.
      connections: fc.array(fc.record({ replayBack: fc.nat({ max: 20 }), sent: fc.nat({ max: 15 }), cleanClose: fc.boolean() }), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(plan, ({ total, connections: sessions }) => {
        const event = (n: number) => frame(String(n), "tool.progress", { n });
        let session = 0;
        const connect = (lastEventId: string | undefined): Observable<StreamItem> => {
          const resumeAfter = lastEventId === undefined ? 0 : Number(lastEventId);
          const { replayBack = 0, sent = total, cleanClose = false } = sessions[session++] ?? {};
          const from = Math.max(1, resumeAfter + 1 - replayBack);
          const last = Math.min(total, from + sent - 1);
          const frames = Array.from({ length: Math.max(0, last - from + 1) }, (_, index) => event(from + index));
          const ending = session > sessions.length || last === total ? of(frame(undefined, "end", {})) : cleanClose ? EMPTY : throwError(() => drop);
          return concat(from <= last ? of(...frames) : EMPTY, ending);
        };
        const delivered: number[] = [];
        testScheduler().run(({ flush }) => {
          resumableEvents(connect, settings({ retry: { maxRetries: 1_000, baseDelayMs: 1, maxDelayMs: 5 } })).subscribe((e) => {
            if (e.event !== "end") delivered.push((e.data as { n: number }).n);
          });
          flush();
        });
        expect(delivered).toEqual(Array.from({ length: total }, (_, index) => index + 1));
      }),
      { numRuns: 300 },
    );
  });
});
