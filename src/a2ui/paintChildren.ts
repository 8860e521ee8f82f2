import type { ComponentNode } from "@a2ui/web_core/v0_9";
import type { PaintContext } from "./paintContext";

/**
 * Keeps `container`'s children in step with `nodes`: a node drawn before
 * keeps its element (and its input's focus), a new one is drawn, one no
 * longer there goes (web_core has disposed it).
 */
export function childrenPainter(container: HTMLElement, context: PaintContext): (nodes: readonly ComponentNode[]) => void {
  let drawn = new Map<ComponentNode, HTMLElement | undefined>();
  return (nodes) => {
    const next = new Map<ComponentNode, HTMLElement | undefined>();
    for (const node of nodes) next.set(node, drawn.has(node) ? drawn.get(node) : context.paint(node));
    drawn = next;
    const elements = [...next.values()].filter((element): element is HTMLElement => element !== undefined);
    if (elements.length !== container.children.length || elements.some((element, index) => container.children[index] !== element)) container.replaceChildren(...elements);
  };
}

/**
 * The first `templateItems` of a component's children when they come from a
 * template over a data list (one warning per component when there are more),
 * else all of them.
 */
export function cappedChildren(node: ComponentNode, children: ComponentNode[], context: PaintContext): ComponentNode[] {
  const raw = context.surface.componentsModel.get(node.componentId)?.properties.children;
  const fromTemplate = typeof raw === "object" && raw !== null && !Array.isArray(raw);
  if (!fromTemplate || children.length <= context.templateItems) return children;
  context.warnOnce(`template:${node.componentId}`, `Component ${node.componentId} lists ${children.length} items: the first ${context.templateItems} are drawn.`);
  return children.slice(0, context.templateItems);
}
