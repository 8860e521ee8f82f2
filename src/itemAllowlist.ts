import type { CarbonResponseType } from "./carbon";
import { isRecord } from "./internal/isRecord";

/**
 * The items Carbon AI Chat 1.9.1 renders, by `response_type`, with the fields
 * its types require (checked against `@carbon/ai-chat` in spec/carbon.spec.ts).
 * Nested items (carousel, grid cells, card body and footer) are checked too.
 */
type FieldCheck = (value: unknown, path: string) => string[];

const string: FieldCheck = (value, path) => (typeof value === "string" ? [] : [`${path}: must be a string`]);
const object: FieldCheck = (value, path) => (isRecord(value) ? [] : [`${path}: must be an object`]);
const items: FieldCheck = (value, path) =>
  Array.isArray(value) ? value.flatMap((item, index) => carbonItemProblems(item, `${path}.${index}`)) : [`${path}: must be an array of items`];
const arrayOf =
  (each: FieldCheck): FieldCheck =>
  (value, path) =>
    Array.isArray(value) ? value.flatMap((entry, index) => each(entry, `${path}.${index}`)) : [`${path}: must be an array`];
const objectWith =
  (fields: Record<string, FieldCheck>): FieldCheck =>
  (value, path) =>
    isRecord(value) ? Object.entries(fields).flatMap(([field, check]) => check(value[field], `${path}.${field}`)) : [`${path}: must be an object`];
const oneOf =
  (...allowed: string[]): FieldCheck =>
  (value, path) =>
    allowed.includes(value as string) ? [] : [`${path}: must be one of ${allowed.join(", ")}`];
const optional =
  (check: FieldCheck): FieldCheck =>
  (value, path) =>
    value === undefined ? [] : check(value, path);

const option = objectWith({ label: string, value: objectWith({ input: object }) });

/** Required fields (and nested items) per `response_type`. */
const RESPONSE_TYPES: Readonly<Record<CarbonResponseType, Record<string, FieldCheck>>> = {
  text: { text: optional(string) },
  option: { options: arrayOf(option) },
  connect_to_agent: {},
  image: { source: string },
  video: { source: string },
  audio: { source: string },
  pause: {},
  user_defined: {},
  iframe: { source: string },
  date: {},
  inline_error: {},
  card: { body: optional(items), footer: optional(items) },
  carousel: { items },
  button: { button_type: oneOf("post_back", "custom_event", "show_panel", "url") },
  grid: { columns: arrayOf(objectWith({ width: string })), rows: arrayOf(objectWith({ cells: arrayOf(objectWith({ items })) })) },
  conversational_search: { text: string },
  preview_card: { workspace_id: string },
  // A response type without an item interface of its own in 1.9.1: a line of text from the system.
  system: { text: optional(string) },
};

/** The `response_type`s Carbon 1.9.1 renders. */
export const CARBON_RESPONSE_TYPES = Object.keys(RESPONSE_TYPES) as readonly CarbonResponseType[];

/** Why Carbon 1.9.1 could not render `item`: an empty list when it can. */
export function carbonItemProblems(item: unknown, path = "item"): string[] {
  if (!isRecord(item)) return [`${path}: must be an object`];
  const fields = Object.hasOwn(RESPONSE_TYPES, item.response_type as string) ? RESPONSE_TYPES[item.response_type as CarbonResponseType] : undefined;
  if (fields === undefined) {
    return [`${path}.response_type: must be one of ${CARBON_RESPONSE_TYPES.join(", ")}`];
  }
  const metadata = item.streaming_metadata;
  const metadataProblems = metadata === undefined || (isRecord(metadata) && typeof metadata.id === "string") ? [] : [`${path}.streaming_metadata.id: must be a string`];
  return [...metadataProblems, ...Object.entries(fields).flatMap(([field, check]) => check(item[field], `${path}.${field}`))];
}
