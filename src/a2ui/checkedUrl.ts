import type { ComponentNode } from "@a2ui/web_core/v0_9";
import { urlRefusal } from "../itemAllowlist";
import { oneLine } from "./oneLine";
import type { PaintContext } from "./paintContext";

/**
 * `url` when the URL policy lets the browser load it, else nothing, with a
 * warning (once per component and URL) naming the component and the reason,
 * never the URL's whole text.
 */
export function checkedUrl(url: string, node: ComponentNode, field: string, context: PaintContext): string | undefined {
  if (!url) return undefined;
  const item = context.surface.componentsModel.get(node.componentId)?.properties ?? {};
  const refusal = urlRefusal(url, { path: `${node.componentId}.${field}`, item }, context.urlPolicy);
  if (refusal === undefined) return url;
  context.warnOnce(`url:${node.componentId}:${url}`, `The ${field} of ${node.type} ${node.componentId} was refused (${refusal}): ${oneLine(url).slice(0, 60)}`);
  return undefined;
}
