import type { CarbonResponseType } from "./carbon";
import { isRecord } from "./internal/isRecord";

/** Where a URL was found, for `allowUrl`. */
export interface UrlContext {
  /** The field's path, e.g. `item.body.0.source`. */
  path: string;
  /** The innermost item holding the field (an iframe inside a card is the iframe). */
  item: Readonly<Record<string, unknown>>;
  /** What the default policy says: an absolute `https:` URL (or `http:` with `allowHttp`). */
  allowedByDefault: boolean;
}

/** Which URLs items may carry. */
export interface UrlPolicy {
  /** Also accept `http:` URLs. Default `false`. */
  allowHttp?: boolean;
  /**
   * Decides each URL of an item, widening or narrowing the default (say, an
   * origin allowlist for iframes). Default: `allowedByDefault`.
   */
  allowUrl?: (url: string, context: UrlContext) => boolean;
}

/**
 * The items Carbon AI Chat 1.9.1 renders, by `response_type`, with the fields
 * its types require (checked against `@carbon/ai-chat` in spec/carbon.spec.ts)
 * and every field it loads or opens as a URL. Nested items (carousel, grid
 * cells, card and button-panel body and footer) are checked too.
 */
interface Checking {
  policy: UrlPolicy;
  /** The innermost item being checked. */
  item: Record<string, unknown>;
}
type FieldCheck = (value: unknown, path: string, checking: Checking) => string[];

const string: FieldCheck = (value, path) => (typeof value === "string" ? [] : [`${path}: must be a string`]);
const object: FieldCheck = (value, path) => (isRecord(value) ? [] : [`${path}: must be an object`]);
const items: FieldCheck = (value, path, { policy }) =>
  Array.isArray(value) ? value.flatMap((item, index) => carbonItemProblems(item, `${path}.${index}`, policy)) : [`${path}: must be an array of items`];
const arrayOf =
  (each: FieldCheck): FieldCheck =>
  (value, path, checking) =>
    Array.isArray(value) ? value.flatMap((entry, index) => each(entry, `${path}.${index}`, checking)) : [`${path}: must be an array`];
const objectWith =
  (fields: Record<string, FieldCheck>): FieldCheck =>
  (value, path, checking) =>
    isRecord(value) ? Object.entries(fields).flatMap(([field, check]) => check(value[field], `${path}.${field}`, checking)) : [`${path}: must be an object`];
const oneOf =
  (...allowed: string[]): FieldCheck =>
  (value, path) =>
    allowed.includes(value as string) ? [] : [`${path}: must be one of ${allowed.join(", ")}`];
const optional =
  (check: FieldCheck): FieldCheck =>
  (value, path, checking) =>
    value === undefined ? [] : check(value, path, checking);

/** Why the default policy refuses `value`, or nothing when it accepts it. */
function defaultUrlRefusal(value: string, allowHttp: boolean): string | undefined {
  let url: URL;
  try {
    // The WHATWG parser, as the browser reads the attribute: surrounding spaces and controls dropped, tabs and newlines removed.
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol === "https:" || (allowHttp && url.protocol === "http:")) return undefined;
  return `${url.protocol} URLs are not allowed (only https:${allowHttp ? " and http:" : ""})`;
}

/**
 * Why the URL policy refuses `value`, a URL the browser would load or open
 * (found at `path`, in `item`), or nothing when it accepts it: by default an
 * absolute `https:` URL (`http:` too with `allowHttp`), as `allowUrl` decides.
 */
export function urlRefusal(value: string, where: Omit<UrlContext, "allowedByDefault">, policy: UrlPolicy = {}): string | undefined {
  const refusal = defaultUrlRefusal(value, policy.allowHttp === true);
  const allowed = policy.allowUrl ? policy.allowUrl(value, { ...where, allowedByDefault: refusal === undefined }) : refusal === undefined;
  return allowed ? undefined : (refusal ?? "refused by allowUrl");
}

/** A string field the browser loads or opens as a URL. */
const url: FieldCheck = (value, path, { policy, item }) => {
  if (typeof value !== "string") return [`${path}: must be a string`];
  const refusal = urlRefusal(value, { path, item }, policy);
  return refusal === undefined ? [] : [`${path}: ${refusal}`];
};

const option = objectWith({ label: string, value: objectWith({ input: object }) });
const media = {
  source: url,
  file_accessibility: optional(objectWith({ subtitle_tracks: optional(arrayOf(objectWith({ src: url }))) })),
};

/** Required fields, URL fields and nested items per `response_type`. */
const RESPONSE_TYPES: Readonly<Record<CarbonResponseType, Record<string, FieldCheck>>> = {
  text: { text: optional(string) },
  option: { options: arrayOf(option) },
  connect_to_agent: {},
  image: media,
  video: media,
  audio: media,
  pause: {},
  user_defined: {},
  iframe: { source: url, image_url: optional(url) },
  date: {},
  inline_error: {},
  card: { body: optional(items), footer: optional(items) },
  carousel: { items },
  button: {
    button_type: oneOf("post_back", "custom_event", "show_panel", "url"),
    url: optional(url),
    image_url: optional(url),
    panel: optional(objectWith({ body: optional(items), footer: optional(items) })),
  },
  grid: { columns: arrayOf(objectWith({ width: string })), rows: arrayOf(objectWith({ cells: arrayOf(objectWith({ items })) })) },
  conversational_search: { text: string, citations: optional(arrayOf(objectWith({ url: optional(url) }))) },
  preview_card: { workspace_id: string },
  // A response type without an item interface of its own in 1.9.1: a line of text from the system.
  system: { text: optional(string) },
};

/** The `response_type`s Carbon 1.9.1 renders. */
export const CARBON_RESPONSE_TYPES = Object.keys(RESPONSE_TYPES) as readonly CarbonResponseType[];

/**
 * Why Carbon 1.9.1 could not render `item`, or should not (a URL the policy
 * refuses: by default anything but an absolute `https:` URL, so no
 * `javascript:`, `data:`, `vbscript:` or `blob:`): an empty list when it can.
 */
export function carbonItemProblems(item: unknown, path = "item", policy: UrlPolicy = {}): string[] {
  if (!isRecord(item)) return [`${path}: must be an object`];
  const fields = Object.hasOwn(RESPONSE_TYPES, item.response_type as string) ? RESPONSE_TYPES[item.response_type as CarbonResponseType] : undefined;
  if (fields === undefined) {
    return [`${path}.response_type: must be one of ${CARBON_RESPONSE_TYPES.join(", ")}`];
  }
  const metadata = item.streaming_metadata;
  const metadataProblems = metadata === undefined || (isRecord(metadata) && typeof metadata.id === "string") ? [] : [`${path}.streaming_metadata.id: must be a string`];
  const checking: Checking = { policy, item };
  return [...metadataProblems, ...Object.entries(fields).flatMap(([field, check]) => check(item[field], `${path}.${field}`, checking))];
}
