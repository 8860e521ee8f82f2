import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { createEventStreamParser, type EventStreamFrame } from "../../src/internal/eventStream";

class TooLarge extends Error {}

interface Parsed {
  frames: EventStreamFrame[];
  retries: number[];
}

function parse(chunks: Uint8Array[], maxEventSize = 1 << 20): Parsed {
  const parsed: Parsed = { frames: [], retries: [] };
  const parser = createEventStreamParser({
    maxEventSize,
    tooLarge: (limit) => new TooLarge(`over ${limit}`),
    onFrame: (frame) => parsed.frames.push(frame),
    onRetry: (ms) => parsed.retries.push(ms),
  });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return parsed;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const parseText = (text: string, maxEventSize?: number) => parse([bytes(text)], maxEventSize);
const frame = (fields: Partial<EventStreamFrame>): EventStreamFrame => ({ id: undefined, event: undefined, data: undefined, ...fields });

describe("createEventStreamParser", () => {
  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("reads %s line ends", (_name, eol) => {
    const text = ["id: 1", "event: tool.started", "data: {\"a\":1}", "", ": ping", "", "data: x", "data:  y", "", ""].join(eol);
    expect(parseText(text)).toEqual({
      frames: [frame({ id: "1", event: "tool.started", data: '{"a":1}' }), frame({ data: "x\n y" })],
      retries: [],
    });
  });

  it("gives each frame its own id: none when it has no id line or one with NUL, empty for an empty one", () => {
    const { frames } = parseText("id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid\ndata: d\n\n");
    expect(frames.map(({ id }) => id)).toEqual(["7", undefined, undefined, ""]);
  });

  it("reports a frame with an id or an event but no data (browsers would not dispatch it), so a data-less `end` is seen", () => {
    expect(parseText("id: 3\nevent: end\n\n\n\n").frames).toEqual([frame({ id: "3", event: "end" })]);
  });

  it("reads `retry:` only when it is all digits; ignores unknown fields; a field name alone is an empty value", () => {
    const parsed = parseText("retry: 2500\nretry: 1s\nfoo: bar\ndata\n\n");
    expect(parsed.retries).toEqual([2500]);
    expect(parsed.frames).toEqual([frame({ data: "" })]);
  });

  it("strips one byte-order mark at the start of the stream, even split, and no other", () => {
    const bom = [0xef, 0xbb, 0xbf];
    const stream = Uint8Array.from([...bom, ...bytes("data: a\n\n"), ...bom, ...bytes("data: b\n\n")]);
    // The second one makes "\uFEFFdata" an unknown field, which is ignored.
    expect(parse([stream.subarray(0, 2), stream.subarray(2)]).frames).toEqual([frame({ data: "a" })]);
  });

  it("keeps a CRLF whole when an empty chunk falls between its CR and its LF", () => {
    const { frames } = parse([bytes("id: 1\r\ndata: a\r"), new Uint8Array(0), bytes("\ndata: b\r\n\r\n")]);
    expect(frames).toEqual([frame({ id: "1", data: "a\nb" })]);
  });

  it("drops a frame the stream ends in the middle of", () => {
    expect(parseText("data: a\n\ndata: b\n").frames.map((f) => f.data)).toEqual(["a"]);
  });

  it("decodes invalid UTF-8 as U+FFFD, as the standard's decoder does", () => {
    expect(parse([Uint8Array.from([...bytes("data: "), 0xff, 0x0a, 0x0a])]).frames[0]?.data).toBe("\ufffd");
  });

  describe("size bound", () => {
    it("throws on a line longer than maxEventSize as soon as its bytes arrive, keeping none of them", () => {
      const parser = createEventStreamParser({ maxEventSize: 100, tooLarge: () => new TooLarge(), onFrame: () => undefined });
      parser.push(bytes("data: " + "x".repeat(90)));
      expect(() => parser.push(bytes("x".repeat(10)))).toThrow(TooLarge);
    });

    it("throws on one huge network chunk without a line end", () => {
      expect(() => parse([new Uint8Array(10 << 20).fill(0x61)], 1 << 20)).toThrow(TooLarge);
    });

    it("throws on a frame whose lines together pass maxEventSize", () => {
      expect(() => parseText(`${"data: 12345678\n".repeat(10)}\n`, 100)).toThrow(TooLarge);
      expect(parseText(`${"data: 12345678\n".repeat(6)}\n`, 100).frames).toHaveLength(1);
    });

    it("counts bytes, not characters", () => {
      const line = `data: ${"é".repeat(50)}`; // 56 characters, 106 bytes
      expect(() => parseText(`${line}\n\n`, 100)).toThrow(TooLarge);
      expect(parseText(`${line}\n\n`, 106).frames).toHaveLength(1);
    });

    it("does not count comments or the blank line into a frame", () => {
      expect(parseText(`${": ping\n".repeat(100)}data: ok\n\n`, 20).frames).toEqual([frame({ data: "ok" })]);
    });
  });

  describe("properties", () => {
    const fieldText = fc.string({ unit: fc.oneof(fc.constantFrom("a", " ", ":", "é", "😀", "\u2028", "{", '"'), fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 })) }).map((s) => s.replace(/[\r\n\0]/g, ""));
    const eol = fc.constantFrom("\n", "\r\n", "\r");
    const event = fc.record({
      id: fc.option(fieldText, { nil: undefined }),
      event: fc.option(fieldText.filter((s) => s.length > 0), { nil: undefined }),
      data: fc.array(fieldText, { minLength: 1, maxLength: 3 }),
      comment: fc.boolean(),
    });
    const stream = fc.record({ events: fc.array(event, { maxLength: 12 }), eols: fc.array(eol, { minLength: 1, maxLength: 4 }) }).map(({ events, eols }) => {
      let n = 0;
      let previous = "";
      const line = (text: string) => {
        let end = eols[n++ % eols.length]!;
        // A CR, then an empty line ended by LF, would read as one CRLF.
        if (previous === "\r" && text === "" && end === "\n") end = "\r";
        previous = end;
        return text + end;
      };
      const text = events
        .map((e) => (e.comment ? line(": keep-alive") : "") + (e.id !== undefined ? line(`id: ${e.id}`) : "") + (e.event !== undefined ? line(`event: ${e.event}`) : "") + e.data.map((d) => line(`data: ${d}`)).join("") + line(""))
        .join("");
      return { events, bytes: bytes(text), text };
    });
    const split = (data: Uint8Array, cuts: number[]) => {
      const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
      return [...points, data.length].map((end, index) => data.subarray(index === 0 ? 0 : points[index - 1], end));
    };

    it("yields the events that were written, however the bytes are split (inside UTF-8 characters and CRLF pairs too)", () => {
      fc.assert(
        fc.property(stream, fc.array(fc.nat(), { maxLength: 20 }), ({ events, bytes: whole }, cuts) => {
          const expected = events.map((e) => ({ id: e.id, event: e.event, data: e.data.join("\n") }));
          const { frames } = parse(split(whole, cuts));
          expect(frames.map(({ id, event, data }) => ({ id, event, data }))).toEqual(expected);
        }),
        { numRuns: 500 },
      );
    });

    it("bounds by the exact UTF-8 size of lines and frames, however the bytes are split", () => {
      fc.assert(
        fc.property(stream, fc.array(fc.nat(), { maxLength: 20 }), ({ text, bytes: whole }, cuts) => {
          // The largest line, and the largest frame (its field lines, no comments), in bytes: the least bound that passes.
          let needed = 0;
          let frameBytes = 0;
          for (const line of text.split(/\r\n|\r|\n/)) {
            const size = bytes(line).length;
            if (line === "") frameBytes = 0;
            else if (!line.startsWith(":")) frameBytes += size;
            needed = Math.max(needed, size, frameBytes);
          }
          expect(() => parse(split(whole, cuts), needed)).not.toThrow();
          if (needed > 0) expect(() => parse(split(whole, cuts), needed - 1)).toThrow(TooLarge);
        }),
        { numRuns: 500 },
      );
    });

    it("agrees with eventsource-parser on every frame that carries data", () => {
      fc.assert(
        fc.property(stream, ({ text, bytes: whole }) => {
          const reference: { id: string | undefined; event: string | undefined; data: string }[] = [];
          const oracle = createParser({ onEvent: ({ id, event, data }) => reference.push({ id, event, data }) });
          // A comment line makes it read a last lone CR, which it otherwise holds back waiting for an LF.
          oracle.feed(`${text}:\n`);
          expect(parse([whole]).frames.map(({ id, event, data }) => ({ id, event: event || undefined, data }))).toEqual(reference);
        }),
        { numRuns: 300 },
      );
    });
  });
});
