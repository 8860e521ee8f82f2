import fc from "fast-check";
import { parseRetryAfter } from "../../../src/tool-client/body";
import { createEventStreamParser } from "../../../src/internal/eventStream";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");
const time = (date: Date) => `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;

/** The three forms of an HTTP-date (RFC 9110 §5.6.7) for a whole second. */
const imfFixdate = (date: Date) => `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${time(date)} GMT`;
const rfc850 = (date: Date) => `${LONG_DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-${two(date.getUTCFullYear() % 100)} ${time(date)} GMT`;
const asctime = (date: Date) => `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, " ")} ${time(date)} ${date.getUTCFullYear()}`;

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
// Whole seconds from 1970 to 9999 (four-digit years).
const wholeSecondDate = fc.integer({ min: 0, max: Math.floor(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000) }).map((seconds) => new Date(seconds * 1000));

describe("Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; anything else is absent", () => {
  it("reads delay-seconds as that many seconds", () => {
    fc.assert(fc.property(fc.nat(), (seconds) => parseRetryAfter(String(seconds), NOW) === seconds * 1000));
    expect(parseRetryAfter("000120", NOW)).toBe(120_000);
  });

  it("reads an IMF-fixdate as the time until it, and one in the past as 0", () => {
    fc.assert(fc.property(wholeSecondDate, (date) => parseRetryAfter(imfFixdate(date), NOW) === Math.max(0, date.getTime() - NOW)));
  });

  it("reads asctime dates", () => {
    fc.assert(fc.property(wholeSecondDate, (date) => parseRetryAfter(asctime(date), NOW) === Math.max(0, date.getTime() - NOW)));
  });

  it("reads rfc850 dates, a two-digit year more than 50 years ahead meaning the past century", () => {
    const within50Years = fc.integer({ min: Math.floor(Date.UTC(1977, 0, 16) / 1000), max: Math.floor(Date.UTC(2076, 0, 14) / 1000) }).map((seconds) => new Date(seconds * 1000));
    fc.assert(fc.property(within50Years, (date) => parseRetryAfter(rfc850(date), NOW) === Math.max(0, date.getTime() - NOW)));
    expect(parseRetryAfter("Monday, 15-Jan-80 12:00:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("Thursday, 15-Jan-26 12:00:10 GMT", NOW)).toBe(10_000);
  });

  it.each([
    "Later 5",
    "5 seconds",
    "-5",
    "1.5",
    "0x10",
    "1e3",
    "",
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun, 31 Feb 2030 08:49:37 GMT",
    "Sun, 06 Nov 2030 24:00:00 GMT",
    "Sun, 06 Nov 2030 08:60:00 GMT",
    "Xyz, 06 Nov 2030 08:49:37 GMT",
    "Sun, 06 nov 2030 08:49:37 GMT",
    "2030-11-06T08:49:37Z",
    "Sun Nov 6 08:49:37 1994",
    "Sunday, 06-Nov-1994 08:49:37 GMT",
  ])("treats %j as absent", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it("treats any string that is not digits nor in an HTTP-date form as absent", () => {
    const httpDateShape = /^[A-Z][a-z]{2}(day|sday|nesday|urday)?[, ]/;
    fc.assert(
      fc.property(fc.string(), (value) => {
        fc.pre(!/^\s*\d+\s*$/.test(value) && !httpDateShape.test(value.trim()));
        return parseRetryAfter(value, NOW) === undefined;
      }),
    );
  });
});

describe("the event-stream byte bound, under arbitrary chunking", () => {
  const encoder = new TextEncoder();
  /** Splits `bytes` at the given cut points. */
  const chunked = (bytes: Uint8Array, cuts: number[]) => {
    const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks: Uint8Array[] = [];
    let start = 0;
    for (const point of [...points, bytes.length]) {
      chunks.push(bytes.subarray(start, point));
      start = point;
    }
    return chunks;
  };
  // Text with 1-, 2-, 3- and 4-byte characters.
  const text = fc.array(fc.constantFrom("a", "é", "€", "🦜", "z"), { maxLength: 60 }).map((characters) => characters.join(""));

  const push = (chunks: Uint8Array[], maxEventSize: number) => {
    const parser = createEventStreamParser({ maxEventSize, onFrame: () => undefined, tooLarge: () => new RangeError("too large") });
    for (const chunk of chunks) parser.push(chunk);
  };

  it("counts every byte of characters sent a byte at a time (a 3-byte character is not one byte)", () => {
    const line = encoder.encode(`data: ${"€".repeat(400)}\n\n`);
    expect(() => push(Array.from(line, (byte) => Uint8Array.of(byte)), 1000)).toThrow(RangeError);
    // The same with each character's last byte sent along with the next one's first.
    const pairs = Array.from({ length: Math.ceil(line.length / 2) }, (_, index) => line.subarray(index * 2, index * 2 + 2));
    expect(() => push(pairs, 1000)).toThrow(RangeError);
  });

  it("refuses a line exactly when its UTF-8 size passes maxEventSize, however the bytes are split", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 8, max: 120 }), fc.array(fc.nat(), { maxLength: 40 }), (value, maxEventSize, cuts) => {
        const line = `data: ${value}`;
        const bytes = encoder.encode(`${line}\n\n`);
        const frames: (string | undefined)[] = [];
        const parser = createEventStreamParser({ maxEventSize, onFrame: (frame) => frames.push(frame.data), tooLarge: () => new RangeError("too large") });
        let refused = false;
        try {
          for (const chunk of chunked(bytes, cuts)) parser.push(chunk);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          refused = true;
        }
        const tooLarge = encoder.encode(line).length > maxEventSize;
        return refused === tooLarge && (refused || frames[0] === value);
      }),
      { numRuns: 500 },
    );
  });
});
