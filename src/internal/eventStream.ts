/**
 * The server-sent event framing of the WHATWG HTML standard ("Parsing an
 * event stream"), with a hard size bound in bytes. Shared by the AG-UI
 * runner and the tool client's event stream. Why not eventsource-parser, which
 * the runner used before: see docs/dependencies.md.
 */

/** One dispatched frame. */
export interface EventStreamFrame {
  /** The frame's own `id:` field; undefined when it had none. (The last event ID across frames is the reader's to keep.) */
  id: string | undefined;
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
  /** True while a line or a frame has begun and not ended: what a deadline for one frame's arrival watches. */
  pending(): boolean;
}

export function createEventStreamParser(options: EventStreamParserOptions): EventStreamParser {
  const { maxEventSize, onFrame, onRetry, tooLarge } = options;
  // One streaming decoder for the whole stream: a character split across chunks is joined, the leading BOM
  // is dropped (and only that one), invalid bytes become U+FFFD — the standard's UTF-8 decode.
  const decoder = new TextDecoder();
  let partial = "";
  let partialBytes = 0;
  let frameBytes = 0;
  let afterCR = false;
  // Whether the last chunk may have ended inside a character.
  let carried = false;
  let id: string | undefined;
  let event: string | undefined;
  let data: string | undefined;

  const dispatch = () => {
    if (id !== undefined || event !== undefined || data !== undefined) onFrame({ id, event, data });
    id = event = data = undefined;
    frameBytes = 0;
  };

  const line = (text: string, bytes: number) => {
    if (text.length === 0) return dispatch();
    const first = text.charCodeAt(0);
    // A comment (a keep-alive): nothing to do.
    if (first === COLON) return;
    frameBytes += bytes;
    if (frameBytes > maxEventSize) throw tooLarge(maxEventSize);
    const colon = text.indexOf(":");
    const name = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (name) {
      case "data":
        data = data === undefined ? value : `${data}\n${value}`;
        break;
      case "event":
        event = value;
        break;
      case "id":
        if (!value.includes("\0")) id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) onRetry?.(Number(value));
        break;
      // Other field names are ignored, as the standard says.
    }
  };

  return {
    push(bytes) {
      // An empty chunk must not forget that the last one ended in CR (a CRLF split around it).
      if (bytes.length === 0) return;
      const text = decoder.decode(bytes, { stream: true });
      // One UTF-16 unit per byte (all ASCII, the usual case): a line's characters are its bytes. A byte gives at
      // most one unit, so equal lengths prove it, unless the chunk began by finishing a character carried over from
      // the last one. Otherwise a line's bytes are read off the chunk itself: CR and LF are single bytes that never
      // occur inside a UTF-8 sequence, so the n-th line end in the text is the n-th in the bytes, and a line counts
      // the bytes between its ends as they arrived (a character split across chunks in the chunk of each part).
      const ascii = !carried && text.length === bytes.length;
      // A character left unfinished has its lead byte among the last three.
      carried = bytes[bytes.length - 1]! >= 0x80 || (bytes.length > 1 && bytes[bytes.length - 2]! >= 0x80) || (bytes.length > 2 && bytes[bytes.length - 3]! >= 0x80);
      let start = 0;
      // Where the next line's bytes begin in the chunk (read only when it is not all ASCII).
      let byteStart = 0;
      if (afterCR && text.charCodeAt(0) === LF) start = byteStart = 1;
      afterCR = false;
      // Cached positions keep the scan linear when a chunk has many LFs and no CR (or the reverse).
      let nextLF = -2;
      let nextCR = -2;
      while (start < text.length) {
        if (nextLF !== -1 && nextLF < start) nextLF = text.indexOf("\n", start);
        if (nextCR !== -1 && nextCR < start) nextCR = text.indexOf("\r", start);
        const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
        const stop = end === -1 ? text.length : end;
        const byteStop = ascii ? stop : end === -1 ? bytes.length : bytes.indexOf(text.charCodeAt(end), byteStart);
        const bytesHere = byteStop - byteStart;
        if (partialBytes + bytesHere > maxEventSize) throw tooLarge(maxEventSize);
        if (end === -1) {
          partial += text.slice(start);
          partialBytes += bytesHere;
          return;
        }
        const whole = partial.length > 0 ? partial + text.slice(start, end) : text.slice(start, end);
        const wholeBytes = partialBytes + bytesHere;
        partial = "";
        partialBytes = 0;
        line(whole, wholeBytes);
        start = end + 1;
        byteStart = byteStop + 1;
        if (text.charCodeAt(end) === CR) {
          if (start === text.length) afterCR = true;
          else if (text.charCodeAt(start) === LF) {
            start += 1;
            byteStart += 1;
          }
        }
      }
      // The chunk ended with a line end and then the first bytes of a character: they begin the next line.
      partialBytes += bytes.length - byteStart;
    },
    pending: () => partialBytes > 0 || frameBytes > 0,
    end() {
      partial = "";
      partialBytes = frameBytes = 0;
      afterCR = carried = false;
      id = event = data = undefined;
    },
  };
}

/** Largest piece of a chunk parsed at once when reading waits for demand: what one step may add to a consumer's queue. */
export const READ_SLICE_BYTES = 64 * 1024;

/**
 * Reads `reader` into `parser` until the body ends (true) or `stopped()`
 * turns true (false); a read that fails is rethrown as `broken(error)`.
 * With `demand`, reading is pull-based: before each read, and between
 * slices of at most `READ_SLICE_BYTES` of a chunk, it waits for the promise
 * `demand()` gives (none: go on), so a slow consumer leaves the bytes to TCP.
 */
export async function readEventStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  parser: EventStreamParser,
  stopped: () => boolean,
  broken: (error: unknown) => unknown,
  demand?: () => Promise<void> | undefined,
): Promise<boolean> {
  const waitForDemand = async () => {
    const wait = demand?.();
    if (wait) await wait;
    return stopped();
  };
  for (;;) {
    if (await waitForDemand()) return false;
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw broken(error);
    }
    if (stopped()) return false;
    if (chunk.done) break;
    if (!demand) parser.push(chunk.value);
    else {
      for (let start = 0; start < chunk.value.length; start += READ_SLICE_BYTES) {
        if (start > 0 && (await waitForDemand())) return false;
        parser.push(chunk.value.subarray(start, start + READ_SLICE_BYTES));
      }
    }
    if (stopped()) return false;
  }
  parser.end();
  return true;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
