/**
 * The server-sent event framing of the WHATWG HTML standard ("Parsing an
 * event stream"), read from bytes, with a hard size bound. Shared by the AG-UI
 * runner and the tool client's event stream. Why not eventsource-parser, which
 * the runner used before: see docs/dependencies.md.
 */

/** One dispatched frame. */
export interface EventStreamFrame {
  /** The frame's own `id:` field; undefined when it had none. */
  id: string | undefined;
  /** The last event ID after this frame (a frame without `id:` keeps the previous one). */
  lastEventId: string;
  /** The `event:` field; undefined when it had none. */
  event: string | undefined;
  /** The `data:` lines joined by "\n"; undefined when the frame had no `data:` line (browsers do not dispatch those). */
  data: string | undefined;
}

export interface EventStreamParserOptions {
  /** Largest line, and largest frame (its field lines together), in bytes. */
  maxEventSize: number;
  /** Called with every frame that carried `data:`, `id:` or `event:`. */
  onFrame(frame: EventStreamFrame): void;
  /** Called for every comment line (keep-alives). */
  onComment?(): void;
  /** Called with a valid `retry:` field, in milliseconds. */
  onRetry?(milliseconds: number): void;
  /** Makes the error thrown when a line or a frame grows past `maxEventSize`. */
  tooLarge(maxEventSize: number): Error;
}

export interface EventStreamParser {
  /** Parses the next bytes; throws `tooLarge()` as soon as the bound is passed, before keeping the rest. */
  push(bytes: Uint8Array): void;
  /** The stream ended: a frame without its closing blank line is dropped, as the standard says. */
  end(): void;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

export function createEventStreamParser(options: EventStreamParserOptions): EventStreamParser {
  const { maxEventSize, onFrame, onComment, onRetry, tooLarge } = options;
  // Lines end on ASCII bytes, so decoding line by line equals decoding the stream (invalid bytes become U+FFFD).
  // The stream's one leading BOM is stripped below; the decoder must not strip one from every line.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let partial: Uint8Array[] = [];
  let partialBytes = 0;
  let frameBytes = 0;
  let afterCR = false;
  let firstLine = true;
  let lastEventId = "";
  let id: string | undefined;
  let event: string | undefined;
  let data: string | undefined;

  const dispatch = () => {
    if (id !== undefined || event !== undefined || data !== undefined) onFrame({ id, lastEventId, event, data });
    id = event = data = undefined;
    frameBytes = 0;
  };

  const line = (bytes: Uint8Array) => {
    if (firstLine) {
      firstLine = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (bytes.length === 0) return dispatch();
    if (bytes[0] === COLON) return onComment?.();
    frameBytes += bytes.length;
    if (frameBytes > maxEventSize) throw tooLarge(maxEventSize);
    const colon = bytes.indexOf(COLON);
    const name = decoder.decode(colon === -1 ? bytes : bytes.subarray(0, colon));
    const valueStart = colon === -1 ? bytes.length : bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;
    const value = decoder.decode(bytes.subarray(valueStart));
    switch (name) {
      case "data":
        data = data === undefined ? value : `${data}\n${value}`;
        break;
      case "event":
        event = value;
        break;
      case "id":
        if (!value.includes("\0")) id = lastEventId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) onRetry?.(Number(value));
        break;
      // Other field names are ignored, as the standard says.
    }
  };

  const takePartial = (tail: Uint8Array): Uint8Array => {
    if (partial.length === 0) return tail;
    const whole = new Uint8Array(partialBytes + tail.length);
    let offset = 0;
    for (const piece of partial) {
      whole.set(piece, offset);
      offset += piece.length;
    }
    whole.set(tail, offset);
    partial = [];
    partialBytes = 0;
    return whole;
  };

  return {
    push(bytes) {
      let start = 0;
      if (afterCR && bytes[0] === LF) start = 1;
      afterCR = false;
      // Cached positions keep the scan linear when a chunk has many LFs and no CR (or the reverse).
      let nextLF = -2;
      let nextCR = -2;
      while (start < bytes.length) {
        if (nextLF !== -1 && nextLF < start) nextLF = bytes.indexOf(LF, start);
        if (nextCR !== -1 && nextCR < start) nextCR = bytes.indexOf(CR, start);
        const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
        if (end === -1) {
          if (partialBytes + bytes.length - start > maxEventSize) throw tooLarge(maxEventSize);
          // Copied: the caller may reuse its buffer.
          partial.push(bytes.slice(start));
          partialBytes += bytes.length - start;
          return;
        }
        if (partialBytes + end - start > maxEventSize) throw tooLarge(maxEventSize);
        line(takePartial(bytes.subarray(start, end)));
        start = end + 1;
        if (bytes[end] === CR) {
          if (start === bytes.length) afterCR = true;
          else if (bytes[start] === LF) start += 1;
        }
      }
    },
    end() {
      partial = [];
      partialBytes = frameBytes = 0;
      afterCR = false;
      id = event = data = undefined;
    },
  };
}
