import { isComponentNode, ResolvedBinding, WritableBinding, type ComponentApi, type ComponentNode, type NodeProps, type SurfaceModel } from "@a2ui/web_core/v0_9";
import type { UrlPolicy } from "../itemAllowlist";
import type { FieldChecks } from "./fieldChecks";

/** A component drawn: its element, and how it follows its resolved props. */
export interface Painted {
  element: HTMLElement;
  /** Shows `props`, the component's props as web_core resolves them now (data changes, the person's input). */
  update(props: NodeProps): void;
}

/** Draws one component of a type, from its node and its first resolved props. */
export type Painter = (node: ComponentNode, props: NodeProps, context: PaintContext) => Painted;

/** What the painters share with the view drawing one surface. */
export interface PaintContext {
  readonly document: Document;
  readonly surface: SurfaceModel<ComponentApi>;
  readonly urlPolicy: UrlPolicy;
  readonly allowObscured: boolean;
  readonly templateItems: number;
  warn(message: string): void;
  /** Warns once per `key` for this surface's drawing. */
  warnOnce(key: string, message: string): void;
  /** Draws a child component (nothing for one that is not drawn: unknown, not yet arrived, in a cycle). */
  paint(node: ComponentNode): HTMLElement | undefined;
  /** Registers an input or button: disabled while the surface is not live. Returns it. */
  control<T extends HTMLElement>(element: T): T;
  /** Registers a field's checks, run when a button sends an action. */
  field(checks: FieldChecks): void;
  /** The person changed a bound value: writes it to the data model and keeps it across repaints. */
  write(node: ComponentNode, binding: WritableBinding<unknown>, value: unknown): void;
  /** The person pressed a button. */
  press(node: ComponentNode): void;
}

/** A prop's resolved value (a binding's value, else the prop itself). */
export function read(props: NodeProps, key: string): unknown {
  const value = props[key];
  return value instanceof ResolvedBinding ? value.value : value;
}

/** A prop's resolved value as text (empty for nothing, JSON for lists and objects). */
export function readText(props: NodeProps, key: string): string {
  const value = read(props, key);
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The prop's binding when it writes to the data model (it was given as `{ path }`). */
export function writable(props: NodeProps, key: string): WritableBinding<unknown> | undefined {
  const value = props[key];
  return value instanceof WritableBinding ? value : undefined;
}

/** The child nodes a prop holds (one, or a list). */
export function childNodes(props: NodeProps, key: string): ComponentNode[] {
  const value = props[key];
  return (Array.isArray(value) ? value : [value]).filter(isComponentNode);
}
