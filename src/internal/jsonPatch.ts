import jsonPatch, { type Operation } from "fast-json-patch";
import { AgUiPatchError, type PatchOperationSummary } from "../errors";
import { clip, firstLine } from "./clip";
import { isRecord } from "./isRecord";

const OPERATIONS = new Set(["add", "remove", "replace", "move", "copy", "test"]);

export interface PatchOutcome {
  /** The document after the patch: the same root mutated in place, or a new root when the patch replaced it. */
  document: unknown;
  /** Why the patch was rolled back, if it was; the document is then exactly as before. */
  error?: unknown;
  /** The index in the patch of the operation that failed, when one did. */
  failedAt?: number;
  /** Operations skipped because their `op` is not one of RFC 6902's six. */
  dropped: unknown[];
}

/**
 * Applies an RFC 6902 JSON Patch to `document` in place, all or nothing.
 * Each operation is applied by `fast-json-patch` (with its validation and
 * prototype-pollution guard), a step at a time (see `primitiveSteps`), after
 * recording the operations that undo each step;
 * if one fails, the ones before it are undone in reverse order. Undoing keeps
 * old values by reference, so the cost follows the patch, not the document,
 * except that re-adding a removed key would put it last: the first removal
 * from an object records that object's key order (once per object and
 * patch), which a rollback restores.
 */
export function applyPatchAtomically(document: unknown, patch: readonly unknown[]): PatchOutcome {
  const dropped: unknown[] = [];
  const undo: Operation[][] = [];
  const keyOrders = new Map<Record<string, unknown>, string[]>();
  let current = document;
  for (const [index, candidate] of patch.entries()) {
    if (!isOperation(candidate)) {
      dropped.push(candidate);
      continue;
    }
    try {
      for (const operation of primitiveSteps(current, candidate)) {
        const undoThis = undoOperations(current, operation);
        if (operation.op === "remove") recordKeyOrder(current, operation.path, keyOrders);
        current = jsonPatch.applyOperation(current, operation, true, true, true).newDocument;
        undo.push(undoThis);
      }
    } catch (error) {
      for (let step = undo.length - 1; step >= 0; step--) {
        for (const inverse of undo[step]!) current = jsonPatch.applyOperation(current, inverse, false, true, true).newDocument;
      }
      for (const [object, keys] of keyOrders) restoreKeyOrder(object, keys);
      return { document: current, error, failedAt: index, dropped };
    }
  }
  return { document: current, dropped };
}

/** Before a key is removed from an object (not an array), the object's key order, unless already recorded. */
function recordKeyOrder(document: unknown, path: string, keyOrders: Map<Record<string, unknown>, string[]>): void {
  const parent = locate(document, path)?.parent;
  if (typeof parent !== "object" || parent === null || Array.isArray(parent)) return;
  const object = parent as Record<string, unknown>;
  if (!keyOrders.has(object)) keyOrders.set(object, Object.keys(object));
}

/** Puts the object's keys back in `keys`' order (defined, not assigned, so a `__proto__` key stays a key). */
function restoreKeyOrder(object: Record<string, unknown>, keys: readonly string[]): void {
  const entries = keys.filter((key) => Object.hasOwn(object, key)).map((key) => [key, object[key]] as const);
  for (const [key] of entries) delete object[key];
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The operation as steps that each change the document in one place, so a
 * step that fails has changed nothing: a `move` is a `remove` then an `add`
 * (RFC 6902 defines it so), whose halves are undone like any other, and a
 * `copy` an `add` of a copy; both fail when `from` holds nothing. Applied
 * whole, a move whose `add` fails (into its own child, say) would already
 * have removed its source. Values from the patch are copied in, so the
 * document never shares objects with the event that carried them.
 */
function primitiveSteps(document: unknown, operation: Operation): Operation[] {
  if (operation.op === "move" || operation.op === "copy") {
    // RFC 6902 §4.4–4.5: the `from` location must exist (fast-json-patch would move or copy `undefined`).
    const value = jsonPatch.getValueByPointer(document, operation.from);
    if (value === undefined) throw new Error(`${operation.op}: nothing at '${operation.from}'`);
    if (operation.op === "copy") return [{ op: "add", path: operation.path, value: structuredClone(value) }];
    // Onto itself: the root stays; anything else is removed and added back, which puts an object's key last, as
    // fast-json-patch (and so @ag-ui/client) does.
    if (operation.from === "" && operation.path === "") return [];
    if (operation.path.startsWith(`${operation.from}/`)) throw new Error("a value cannot move into its own child");
    return [
      { op: "remove", path: operation.from },
      { op: "add", path: operation.path, value },
    ];
  }
  return "value" in operation ? [{ ...operation, value: structuredClone(operation.value) }] : [operation];
}

function isOperation(candidate: unknown): candidate is Operation {
  return typeof candidate === "object" && candidate !== null && OPERATIONS.has((candidate as { op?: unknown }).op as string);
}

interface Location {
  parentPath: string;
  parent: unknown;
  key: string;
}

function locate(document: unknown, path: string): Location | undefined {
  if (path === "") return undefined;
  const slash = path.lastIndexOf("/");
  const parentPath = path.slice(0, slash);
  let parent: unknown;
  try {
    parent = jsonPatch.getValueByPointer(document, parentPath);
  } catch {
    parent = undefined;
  }
  return { parentPath, parent, key: jsonPatch.unescapePathComponent(path.slice(slash + 1)) };
}

/** The operations that undo `operation` on `document`, worked out before it is applied. */
function undoOperations(document: unknown, operation: Operation): Operation[] {
  const { path } = operation;
  const target = locate(document, path);
  const valueAt = (at: string) => jsonPatch.getValueByPointer(document, at);
  switch (operation.op) {
    case "test":
      return [];
    case "remove":
    case "replace":
      return target ? [{ op: operation.op === "remove" ? "add" : "replace", path, value: valueAt(path) }] : [{ op: "replace", path: "", value: document }];
    case "add":
    case "copy":
      return [undoInsert(document, path, target)];
    default:
      return [];
  }
}

/** Undoes putting a value at `path`: remove it, or put back what the key held. */
function undoInsert(document: unknown, path: string, target: Location | undefined): Operation {
  if (!target) return { op: "replace", path: "", value: document };
  const { parent, parentPath, key } = target;
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : Number(key);
    return { op: "remove", path: `${parentPath}/${index}` };
  }
  const holder = parent as Record<string, unknown> | undefined;
  return holder !== undefined && Object.hasOwn(holder, key) ? { op: "replace", path, value: holder[key] } : { op: "remove", path };
}

/**
 * The warning for a patch that did not apply as sent, if it did not: rolled
 * back, or with operations skipped. It names each operation by its index,
 * `op` and paths, and the reason by its first line: fast-json-patch's message
 * goes on with the operation's value and the whole document (`tree`), and
 * the error itself holds the document, so neither is kept.
 */
export function patchWarning(outcome: PatchOutcome, eventType: string, target: string, delta: readonly unknown[]): AgUiPatchError | undefined {
  const { error, failedAt } = outcome;
  if (error !== undefined && failedAt !== undefined) {
    const operation = summary(delta[failedAt]);
    const message = `A ${eventType} for the ${target} was not applied and nothing changed: operation ${failedAt} (${described(operation)}) failed: ${reason(error)}`;
    return new AgUiPatchError(message, target, delta, { index: failedAt, operation });
  }
  if (outcome.dropped.length > 0) {
    const skipped = delta.flatMap((candidate, index) => (isOperation(candidate) ? [] : [`operation ${index} (${isRecord(candidate) && typeof candidate.op === "string" ? `${quoted(candidate.op)} at ${quoted(candidate.path)}` : "not an operation"})`]));
    return new AgUiPatchError(`Skipped ${outcome.dropped.length} operation(s) of a ${eventType} for the ${target} that RFC 6902 does not define: ${skipped.join(", ")}`, target, delta);
  }
  return undefined;
}

/** Longer paths and names are cut to this many characters in a warning. */
const SHOWN_LENGTH = 120;

function summary(candidate: unknown): PatchOperationSummary {
  const { op, path, from } = candidate as { op: string; path?: unknown; from?: unknown };
  return { op, ...(typeof path === "string" && { path: clipped(path) }), ...(typeof from === "string" && { from: clipped(from) }) };
}

function described({ op, path, from }: PatchOperationSummary): string {
  return from !== undefined && (op === "move" || op === "copy") ? `${op} from ${quoted(from)} to ${quoted(path)}` : `${op} at ${quoted(path)}`;
}

/** The error's first line (fast-json-patch's code with it), which names the failure and nothing of the document. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return "the patch could not be applied";
  const text = firstLine(error.message, SHOWN_LENGTH);
  return error instanceof jsonPatch.JsonPatchError ? `${text} (${error.name})` : text;
}

const clipped = (text: string) => clip(text, SHOWN_LENGTH);
const quoted = (value: unknown) => (typeof value === "string" ? JSON.stringify(clipped(value)) : "(no path)");
