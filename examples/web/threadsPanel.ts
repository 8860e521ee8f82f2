import { auditTime, merge } from "rxjs";
import type { CarbonAgUiAdapter, CarbonThreadInstance } from "carbon-agui-rx";

/**
 * The demo's list of stored conversations: a button to start a new one, and each earlier thread (its first
 * question, when it was last saved) to switch to or delete. It follows the adapter: a new thread, a finished turn.
 * `showMessages` runs once a switched-to thread is in the chat (Carbon's clearing opens its home screen over it).
 */
export function threadsPanel(adapter: CarbonAgUiAdapter, instance: () => CarbonThreadInstance | undefined, showMessages: () => void): HTMLElement {
  const section = sidePanel("threads", "Conversations");
  const start = document.createElement("button");
  start.type = "button";
  start.textContent = "New conversation";
  start.addEventListener("click", () => void adapter.newThread(instance()));
  // A restored thread shows its latest turns (the adapter's `shownTurns`); this puts the earlier ones before them.
  const earlier = document.createElement("button");
  earlier.type = "button";
  earlier.textContent = "Show earlier messages";
  earlier.hidden = true;
  earlier.addEventListener("click", () => {
    const chat = instance();
    if (chat) void adapter.showEarlierHistory(chat).then(() => (earlier.hidden = adapter.earlierTurns === 0));
  });
  const list = document.createElement("ul");
  list.className = "threads";
  section.append(start, earlier, list);

  const refresh = async () => {
    earlier.hidden = adapter.earlierTurns === 0;
    const threads = await adapter.listThreads();
    list.replaceChildren(
      ...threads.map(({ threadId, title, savedAt }) => {
        const item = document.createElement("li");
        const open = document.createElement("button");
        open.type = "button";
        open.className = "thread";
        open.textContent = `${title || "Untitled"} · ${new Date(savedAt).toLocaleTimeString()}`;
        if (threadId === adapter.threadId) open.setAttribute("aria-current", "true");
        open.addEventListener("click", () => {
          const chat = instance();
          if (chat) void adapter.switchThread(threadId, chat).then(showMessages);
        });
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "delete";
        remove.textContent = "Delete";
        remove.setAttribute("aria-label", `Delete “${title || "Untitled"}”`);
        remove.addEventListener("click", () => void adapter.deleteThread(threadId, instance()).then(refresh));
        item.append(open, remove);
        return item;
      }),
    );
  };
  // After a switch or a new thread, and once a turn's save has had time to land.
  merge(adapter.threadId$, adapter.messages$)
    .pipe(auditTime(300))
    .subscribe(() => void refresh());
  return section;
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
