/** How much of an agent-made surface the view draws. */
export interface A2uiLimits {
  /** Components in the surface (distinct ids). */
  components: number;
  /** Nesting depth from the root component. */
  depth: number;
  /** The surface's data, as the JSON length of what `updateDataModel` writes. */
  dataBytes: number;
  /** Items a template list draws. */
  templateItems: number;
}

export const DEFAULT_A2UI_LIMITS: A2uiLimits = { components: 1000, depth: 40, dataBytes: 256 * 1024, templateItems: 500 };

/** One A2UI v0.9 operation with its `version` field dropped. */
export type A2uiOperation = Record<string, unknown>;

type Component = Record<string, unknown>;

/**
 * Why the operations are too large to draw under `limits` (which limit, with
 * its numbers), or nothing when they fit. Reads the operations only, before
 * any of them reaches the model, and stops counting as soon as a limit is
 * passed.
 *
 * Components are counted by distinct id, as cumulative snapshots repeat them.
 * The data is the JSON length of every `updateDataModel` value, a write of the
 * whole model (path `/`) starting the count again. Depth follows child ids
 * from `root`; a component met again on its own branch (a cycle) ends that
 * branch, which the model reports when it draws.
 */
export function limitRefusal(operations: readonly A2uiOperation[], limits: A2uiLimits): string | undefined {
  const components = new Map<string, Component>();
  let dataBytes = 0;
  for (const operation of operations) {
    const update = record(operation.updateComponents);
    if (update && Array.isArray(update.components)) {
      for (const component of update.components) {
        const id = record(component)?.id;
        if (typeof id === "string") components.set(id, component as Component);
      }
      if (components.size > limits.components) return `The surface has more than ${limits.components} components (${componentEntries(operations)}).`;
    }
    const data = record(operation.updateDataModel);
    if (data) {
      const size = data.value === undefined ? 0 : JSON.stringify(data.value).length;
      dataBytes = data.path === undefined || data.path === "/" || data.path === "" ? size : dataBytes + size;
      if (dataBytes > limits.dataBytes) return `The surface's data is ${dataBytes} bytes, more than the ${limits.dataBytes} allowed.`;
    }
  }
  const depth = deepestBranch(components, limits.depth);
  return depth > limits.depth ? `The surface nests components more than ${limits.depth} deep.` : undefined;
}

/** The number of component entries in the operations, repeated ids included: said when the count limit is passed. */
function componentEntries(operations: readonly A2uiOperation[]): number {
  let count = 0;
  for (const operation of operations) {
    const components = record(operation.updateComponents)?.components;
    if (Array.isArray(components)) count += components.length;
  }
  return count;
}

/** The depth of the deepest branch from `root`, counted up to `limit + 1`, each branch ending where it meets one of its own ancestors. */
function deepestBranch(components: ReadonlyMap<string, Component>, limit: number): number {
  let deepest = 0;
  const stack: { id: string; depth: number; ancestors: ReadonlySet<string> }[] = [{ id: "root", depth: 1, ancestors: new Set() }];
  while (stack.length > 0) {
    const { id, depth, ancestors } = stack.pop()!;
    const component = components.get(id);
    if (!component || ancestors.has(id)) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    const branch = new Set(ancestors).add(id);
    for (const child of childIds(component)) stack.push({ id: child, depth: depth + 1, ancestors: branch });
  }
  return deepest;
}

/** The ids a component refers to as its children: `child`, `children` (a list or a template), `tabs[].child`, a modal's `trigger` and `content`. */
function childIds(component: Component): string[] {
  const ids: unknown[] = [component.child, component.trigger, component.content];
  const { children, tabs } = component;
  if (Array.isArray(children)) ids.push(...children);
  else ids.push(record(children)?.componentId);
  if (Array.isArray(tabs)) for (const tab of tabs) ids.push(record(tab)?.child);
  return ids.filter((id): id is string => typeof id === "string");
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
