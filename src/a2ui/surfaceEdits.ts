import type { ComponentApi, SurfaceModel } from "@a2ui/web_core/v0_9";

/**
 * The values the person entered on a surface, by absolute data path, so a
 * repaint keeps them. The rule: the person's edits win until an action is
 * sent. A repaint of the same surface writes them back over the agent's new
 * data; sending an action forgets them (the agent has them now), and so does
 * a repaint of another surface.
 */
export class SurfaceEdits {
  private surfaceId: string | undefined;
  private readonly values = new Map<string, unknown>();

  /** The person wrote `value` at `path` on surface `surfaceId`. */
  record(surfaceId: string, path: string, value: unknown): void {
    if (surfaceId !== this.surfaceId) this.values.clear();
    this.surfaceId = surfaceId;
    this.values.set(path, structuredClone(value));
  }

  /** Writes the person's values back into a fresh model of their surface; a path the new data cannot hold is dropped. */
  restore(surface: SurfaceModel<ComponentApi>): void {
    if (surface.id !== this.surfaceId) return this.forget();
    for (const [path, value] of this.values) {
      try {
        surface.dataModel.set(path, structuredClone(value));
      } catch {
        this.values.delete(path);
      }
    }
  }

  forget(): void {
    this.values.clear();
  }
}
