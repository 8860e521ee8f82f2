/**
 * `createA2uiSurface` on a real adapter whose run the spec drives: the surface is drawn as the activity is when
 * Carbon asks for it (so Carbon lays the item out once, at its height), and later snapshots repaint it at most
 * once per task of its scheduler, the last of them.
 */
import { JSDOM } from "jsdom";
import { ReplaySubject, VirtualTimeScheduler } from "rxjs";
import type { BaseEvent } from "@ag-ui/core";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { createA2uiSurface } from "../../src/a2ui";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";
import { operations } from "./surfaceSetup";

const ACTIVITY = "a2ui-surface-call-1";
const asking = (question: string) => ({ a2ui_operations: operations([{ id: "root", component: "Text", text: question }]) });

async function surfaceOnAdapter() {
  const events = new ReplaySubject<BaseEvent>();
  const adapter = new CarbonAgUiAdapter({ run: () => events, coalesce: false });
  const instance = new CarbonRecorder();
  const answered = adapter.sendMessage({ id: "u-1", input: { text: "Show me a form" } }, { signal: new AbortController().signal }, instance);
  events.next(ev.runStarted());
  const snapshot = async (question: string) => {
    events.next(ev.activitySnapshot(ACTIVITY, "a2ui-surface", asking(question)));
    await waitUntil(() => JSON.stringify(adapter.activities.get(ACTIVITY)?.content ?? null).includes(question));
  };
  const finish = async () => {
    events.next(ev.runFinished());
    events.complete();
    await answered;
  };
  return { adapter, instance, snapshot, finish, document: new JSDOM("<!doctype html>").window.document };
}

describe("createA2uiSurface", () => {
  it("draws the activity as it is when mounted, before any frame", async () => {
    const { adapter, instance, snapshot, finish, document } = await surfaceOnAdapter();
    await snapshot("Delete these 3 files?");
    const surface = createA2uiSurface(document, { kind: "a2ui", activityId: ACTIVITY }, { instance, adapter, scheduler: new VirtualTimeScheduler() });
    expect(surface.element.textContent).toContain("Delete these 3 files?");
    surface.dispose();
    await finish();
  });

  it("repaints at most once per frame, with the last snapshot of the frame", async () => {
    const { adapter, instance, snapshot, finish, document } = await surfaceOnAdapter();
    await snapshot("first");
    const frames = new VirtualTimeScheduler();
    const surface = createA2uiSurface(document, { kind: "a2ui", activityId: ACTIVITY }, { instance, adapter, scheduler: frames });
    const drawn: string[] = [];
    new document.defaultView!.MutationObserver(() => drawn.push(surface.element.textContent ?? "")).observe(surface.element, { childList: true, subtree: true, characterData: true });
    await snapshot("second");
    await snapshot("third");
    expect(surface.element.textContent).toContain("first");
    frames.flush();
    await Promise.resolve();
    expect(surface.element.textContent).toContain("third");
    expect(drawn.filter((text) => text.includes("second"))).toEqual([]);
    surface.dispose();
    await finish();
  });
});
