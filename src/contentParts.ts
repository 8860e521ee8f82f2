import { contentToText, type ContentPart } from "@ag-ui/core";

/**
 * What a person reads of message content given as parts (AG-UI 1.0: text,
 * image, audio, video, document): the text parts as they are, then a line
 * per other part saying what it is, "Attached image: https://…" for one at a
 * URL, "Attached image (image/png)" for one sent as data or as a provider's file.
 * A `data:` source is never written out as a URL (it can be megabytes, and
 * a link to it is a way to smuggle a page in); neither is a URL that is not
 * `https:` or `http:`. The parts themselves stay as they were, in the
 * history the agent is sent.
 */
export function describeContent(content: string | readonly ContentPart[]): string {
  if (typeof content === "string") return content;
  const text = contentToText([...content]);
  const media = content.flatMap((part) => (part.type === "text" ? [] : [`Attached ${describePart(part)}`]));
  return [...(text === "" ? [] : [text]), ...media].join("\n");
}

function describePart(part: Exclude<ContentPart, { type: "text" }>): string {
  const { source } = part;
  if (source.type === "url" && isWebUrl(source.value)) return `${part.type}: ${source.value}`;
  return source.mimeType === undefined ? part.type : `${part.type} (${source.mimeType})`;
}

function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
