import { EventType, type BaseEvent, type AGUIEvent } from "@ag-ui/core";
import type { OperatorFunction } from "rxjs";
import { AgUiProtocolError } from "../../errors";
import { createOperator } from "../fusion";

type ChunkKind = "text" | "tool" | "reasoning";

/** A stream opened by chunk events, open until something else happens in its lane. */
interface OpenChunkStream {
  kind: ChunkKind;
  id: string;
  subagentRunId?: string;
}

/** A lane is the parent agent (undefined) or one subagent run: chunk streams are tracked per lane. */
type Lane = string | undefined;

interface ChunkFields {
  type: EventType;
  messageId?: string;
  toolCallId?: string;
  toolCallName?: string;
  parentMessageId?: string;
  role?: string;
  name?: string;
  delta?: string;
  subagentRunId?: string;
}

/**
 * Expands the convenience `*_CHUNK` events into the explicit
 * START / CONTENT / END events they stand for, as `@ag-ui/client`'s
 * `transformChunks()` does, at a fraction of its cost. A chunk stream ends at
 * the next event of another kind in its lane (or any run boundary), or at a
 * chunk with a different id. When the source completes inside a chunk stream
 * no END is made up: the stream was cut, and `verifySequence()` must see the
 * message still open to say so.
 *
 * ```
 * source: --a------b------c---|    a, b: TEXT_MESSAGE_CHUNK m1 "Hel" / "lo"; c: RUN_FINISHED
 * result: --(SC)---C------(Ec)|    S/C/E: TEXT_MESSAGE_START / CONTENT / END m1
 * ```
 */
export function expandChunks(): OperatorFunction<BaseEvent, AGUIEvent> {
  return createOperator<BaseEvent, AGUIEvent>((out) => {
    const open = new Map<Lane, OpenChunkStream>();

    const close = (lane: Lane) => {
      const stream = open.get(lane);
      if (!stream) return;
      open.delete(lane);
      out.next(endEvent(stream));
    };
    const closeAll = () => {
      for (const lane of [...open.keys()]) close(lane);
    };

    const laneOf = (kind: ChunkKind, chunk: ChunkFields, id: string | undefined): Lane => {
      if (id !== undefined) {
        for (const [lane, stream] of open) if (stream.kind === kind && stream.id === id) return lane;
        return chunk.subagentRunId;
      }
      if (chunk.subagentRunId !== undefined || open.get(undefined)?.kind === kind) return chunk.subagentRunId;
      const lanes = [...open].filter(([, stream]) => stream.kind === kind).map(([lane]) => lane);
      if (lanes.length > 1) {
        throw new AgUiProtocolError(
          `${chunk.type} names no id and no subagentRunId, but ${lanes.length} lanes have one open`,
          chunk.type,
        );
      }
      return lanes[0];
    };

    const expand = (kind: ChunkKind, chunk: ChunkFields) => {
      const id = kind === "tool" ? chunk.toolCallId : chunk.messageId;
      const lane = laneOf(kind, chunk, id);
      let stream = open.get(lane);
      if (!stream || stream.kind !== kind || (id !== undefined && id !== stream.id)) {
        close(lane);
        if (id === undefined) {
          throw new AgUiProtocolError(`The first ${chunk.type} of a stream needs ${kind === "tool" ? "a toolCallId" : "a messageId"}`, chunk.type);
        }
        if (kind === "tool" && !chunk.toolCallName) {
          throw new AgUiProtocolError(`The first ${chunk.type} of a tool call needs a toolCallName`, chunk.type);
        }
        stream = { kind, id, ...(chunk.subagentRunId !== undefined && { subagentRunId: chunk.subagentRunId }) };
        open.set(lane, stream);
        out.next(startEvent(stream, chunk));
      }
      if (chunk.delta !== undefined) out.next(contentEvent(stream, chunk.delta));
    };

    return {
      next(event) {
        switch (event.type) {
          case EventType.TEXT_MESSAGE_CHUNK:
            return expand("text", event as ChunkFields);
          case EventType.TOOL_CALL_CHUNK:
            return expand("tool", event as ChunkFields);
          case EventType.REASONING_MESSAGE_CHUNK:
            return expand("reasoning", event as ChunkFields);
          case EventType.RUN_STARTED:
          case EventType.RUN_FINISHED:
          case EventType.RUN_ERROR:
          case EventType.MESSAGES_SNAPSHOT:
            closeAll();
            break;
          // These may interleave with a chunk stream without ending it.
          case EventType.RAW:
          case EventType.ACTIVITY_SNAPSHOT:
          case EventType.ACTIVITY_DELTA:
          case EventType.REASONING_ENCRYPTED_VALUE:
          case EventType.SUBAGENT_STARTED:
            break;
          default:
            if (open.size > 0) close((event as ChunkFields).subagentRunId);
        }
        out.next(event as AGUIEvent);
      },
    };
  });
}

function lane(stream: OpenChunkStream) {
  return stream.subagentRunId === undefined ? {} : { subagentRunId: stream.subagentRunId };
}

function startEvent(stream: OpenChunkStream, chunk: ChunkFields): AGUIEvent {
  switch (stream.kind) {
    case "text":
      return {
        type: EventType.TEXT_MESSAGE_START,
        messageId: stream.id,
        role: (chunk.role ?? "assistant") as "assistant",
        ...(chunk.name !== undefined && { name: chunk.name }),
        ...lane(stream),
      };
    case "tool":
      return {
        type: EventType.TOOL_CALL_START,
        toolCallId: stream.id,
        toolCallName: chunk.toolCallName as string,
        ...(chunk.parentMessageId !== undefined && { parentMessageId: chunk.parentMessageId }),
        ...lane(stream),
      };
    case "reasoning":
      return { type: EventType.REASONING_MESSAGE_START, messageId: stream.id, role: "reasoning", ...lane(stream) };
  }
}

function contentEvent(stream: OpenChunkStream, delta: string): AGUIEvent {
  switch (stream.kind) {
    case "text":
      return { type: EventType.TEXT_MESSAGE_CONTENT, messageId: stream.id, delta, ...lane(stream) };
    case "tool":
      return { type: EventType.TOOL_CALL_ARGS, toolCallId: stream.id, delta, ...lane(stream) };
    case "reasoning":
      return { type: EventType.REASONING_MESSAGE_CONTENT, messageId: stream.id, delta, ...lane(stream) };
  }
}

function endEvent(stream: OpenChunkStream): AGUIEvent {
  switch (stream.kind) {
    case "text":
      return { type: EventType.TEXT_MESSAGE_END, messageId: stream.id, ...lane(stream) };
    case "tool":
      return { type: EventType.TOOL_CALL_END, toolCallId: stream.id, ...lane(stream) };
    case "reasoning":
      return { type: EventType.REASONING_MESSAGE_END, messageId: stream.id, ...lane(stream) };
  }
}
