import { auditTime, merge } from "rxjs";
import type { CarbonAgUiAdapter, CarbonThreadInstance } from "carbon-agui-rx";

/**
 * The demo's list of conversations, in Carbon's look (its styles are the page's, in pages.ts): a "New conversation"
 * button, and a row per thread `adapter.listThreads()` gives (its title, when it was last saved) to switch to, with
 * a delete button. The current thread's row is marked (`aria-current`). It follows the adapter: a new thread, a
 * finished turn. `showMessages` runs once a switched-to thread is in the chat (Carbon's clearing opens its home screen
 * over it). The thread in the URL (`?thread=`) follows the adapter's thread in one place, the demo's adapter
 * (demoAdapter.ts): a switch here moves it, as Carbon's restart does.
 *
 * The buttons are Carbon's own web components (`cds-button`, `cds-icon-button`), which Carbon AI Chat has already
 * registered on the page.
 */
export function threadsPanel(adapter: CarbonAgUiAdapter, instance: () => CarbonThreadInstance | undefined, showMessages: () => void): HTMLElement {
  const section = sidePanel("threads", "Conversations");
  const start = carbonButton("tertiary", "New conversation", ADD_16);
  start.classList.add("threads-new");
  start.addEventListener("click", () => void adapter.newThread(instance()));
  // A restored thread shows its latest turns (the adapter's `shownTurns`); this puts the earlier ones before them.
  const earlier = carbonButton("ghost", "Show earlier messages");
  earlier.classList.add("threads-earlier");
  earlier.hidden = true;
  earlier.addEventListener("click", () => {
    const chat = instance();
    if (chat) void adapter.showEarlierHistory(chat).then(() => (earlier.hidden = adapter.earlierTurns === 0));
  });
  const list = document.createElement("ul");
  list.className = "threads";
  const empty = document.createElement("p");
  empty.className = "threads-empty";
  empty.textContent = "No conversations yet. What you ask is kept here.";
  section.append(start, earlier, list, empty);

  // Refreshes can overlap (a switch, then a save): only the latest one's list is shown.
  let latest = 0;
  const refresh = async () => {
    const asked = ++latest;
    earlier.hidden = adapter.earlierTurns === 0;
    const threads = await adapter.listThreads();
    if (asked !== latest) return;
    const now = new Date();
    list.replaceChildren(...threads.map((thread) => threadRow(thread, thread.threadId === adapter.threadId, now)));
    empty.hidden = threads.length > 0;
  };

  const threadRow = ({ threadId, title, savedAt }: { threadId: string; title: string; savedAt: string }, current: boolean, now: Date): HTMLLIElement => {
    const name = title || "Untitled";
    const item = document.createElement("li");
    item.className = "thread-row";
    const open = document.createElement("button");
    open.type = "button";
    open.className = "thread";
    if (current) open.setAttribute("aria-current", "true");
    const label = document.createElement("span");
    label.className = "thread-title";
    label.textContent = name;
    open.append(label);
    const at = new Date(savedAt);
    if (!Number.isNaN(at.getTime())) {
      const time = document.createElement("time");
      time.className = "thread-time";
      time.dateTime = at.toISOString();
      time.textContent = shortTime(at, now);
      open.title = `${name}, ${at.toLocaleString()}`;
      open.append(time);
    }
    open.addEventListener("click", () => {
      const chat = instance();
      if (chat) void adapter.switchThread(threadId, chat).then(showMessages);
    });
    const remove = document.createElement("cds-icon-button");
    remove.className = "thread-delete";
    remove.setAttribute("kind", "ghost");
    remove.setAttribute("size", "sm");
    remove.setAttribute("align", "left");
    remove.append(icon(TRASH_CAN_16, "icon"));
    const tip = document.createElement("span");
    tip.slot = "tooltip-content";
    // cds-icon-button gives its inner button this text as its aria-label.
    tip.textContent = `Delete “${name}”`;
    remove.append(tip);
    remove.addEventListener("click", () => void adapter.deleteThread(threadId, instance()).then(refresh));
    item.append(open, remove);
    return item;
  };

  // After a switch or a new thread, and once a turn's save has had time to land.
  merge(adapter.threadId$, adapter.messages$)
    .pipe(auditTime(300))
    .subscribe(() => void refresh());
  return section;
}

/** When a thread was last saved, as a list of conversations shows it: "10:42" today, "Yesterday", "Monday", "3 Mar". */
export function shortTime(at: Date, now = new Date()): string {
  const day = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.round((day(now) - day(at)) / 86_400_000);
  if (days <= 0) return at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (days === 1) return "Yesterday";
  if (days < 7) return at.toLocaleDateString([], { weekday: "long" });
  return at.toLocaleDateString([], { day: "numeric", month: "short", ...(at.getFullYear() !== now.getFullYear() && { year: "numeric" }) });
}

/** A titled section of the demo's side bar: `<name>-panel`, headed by `<name>-heading`. */
export function sidePanel(name: string, title: string): HTMLElement {
  const section = document.createElement("section");
  section.className = `${name}-panel`;
  section.setAttribute("aria-labelledby", `${name}-heading`);
  const heading = document.createElement("h2");
  heading.id = `${name}-heading`;
  heading.textContent = title;
  section.append(heading);
  return section;
}

/** Carbon's button (`cds-button`, small), of `kind`, with an icon after its text if given. */
function carbonButton(kind: "tertiary" | "ghost", text: string, withIcon?: readonly string[]): HTMLElement {
  const button = document.createElement("cds-button");
  button.setAttribute("kind", kind);
  button.setAttribute("size", "sm");
  button.append(text);
  if (withIcon) button.append(icon(withIcon, "icon"));
  return button;
}

/** A 16 px Carbon icon (its paths, on Carbon's 32-unit grid), in the current text color. */
function icon(paths: readonly string[], slot?: string): SVGSVGElement {
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: "0 0 32 32", width: "16", height: "16", fill: "currentColor", "aria-hidden": "true", focusable: "false" })) svg.setAttribute(name, value);
  if (slot) svg.setAttribute("slot", slot);
  for (const d of paths) svg.appendChild(document.createElementNS(SVG, "path")).setAttribute("d", d);
  return svg;
}

// Carbon's `add` and `trash-can` icons at 16 px, as @carbon/icons 11 draws them.
const ADD_16 = ["M17 15 17 8 15 8 15 15 8 15 8 17 15 17 15 24 17 24 17 17 24 17 24 15z"];
const TRASH_CAN_16 = ["M12 12H14V24H12z", "M18 12H20V24H18z", "M4,6V8H6V28a2,2,0,0,0,2,2H24a2,2,0,0,0,2-2V8h2V6ZM8,28V8H24V28Z", "M12 2H20V4H12z"];
