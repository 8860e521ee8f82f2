import type { A2uiSurfaceViewOptions } from "../../src/a2ui";
import { MIDDLEWARE_CATALOG, operations, surfaceView, type Component } from "./surfaceSetup";

const WEB_CORE_CATALOG = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";


const BOOKING: Component[] = [
  { id: "root", component: "Column", children: ["title", "name", "arrival", "room", "book"] },
  { id: "title", component: "Text", text: "Book a room", variant: "h2" },
  { id: "name", component: "TextField", label: "Your name", value: { path: "/guest/name" }, checks: [{ condition: { call: "required", args: { value: { path: "/guest/name" } } }, message: "Your name is required" }] },
  { id: "arrival", component: "DateTimeInput", label: "Arrival", value: { path: "/stay/arrival" }, enableDate: true },
  {
    id: "room",
    component: "ChoicePicker",
    label: "Room type",
    variant: "mutuallyExclusive",
    options: [
      { label: "Single", value: "single" },
      { label: "Double", value: "double" },
    ],
    value: { path: "/stay/room" },
  },
  { id: "book-label", component: "Text", text: "Book" },
  {
    id: "book",
    component: "Button",
    child: "book-label",
    variant: "primary",
    action: { event: { name: "book_room", context: { name: { path: "/guest/name" }, arrival: { path: "/stay/arrival" }, room: { path: "/stay/room" } } } },
  },
];
const BOOKING_DATA = { guest: { name: "" }, stay: { arrival: "2025-06-01", room: ["double"] } };

function setUp(options: Partial<A2uiSurfaceViewOptions> = {}) {
  const drawn = surfaceView(options);
  const { window } = drawn;
  const type = (input: HTMLInputElement, value: string) => {
    input.value = value;
    input.dispatchEvent(new window.Event("input", { bubbles: true }));
  };
  return { ...drawn, type };
}

beforeEach(() => jest.spyOn(console, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe("createA2uiSurfaceView: the booking form", () => {
  it("draws the fields, and Book sends what was typed once, then waits", () => {
    const { view, actions, byId, type, $ } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    expect(byId("title").localName).toBe("h2");
    expect(byId("title").textContent).toBe("Book a room");
    const name = byId("name").querySelector("input")!;
    expect(name.closest("label")!.textContent).toContain("Your name");
    expect((byId("arrival").querySelector("input") as HTMLInputElement).value).toBe("2025-06-01");
    expect((byId("room").querySelector('input[data-value="double"]') as HTMLInputElement).checked).toBe(true);
    type(name, "Ada Lovelace");
    const book = byId<HTMLButtonElement>("book");
    expect(book.textContent).toBe("Book");
    book.click();
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ name: "book_room", surfaceId: "booking", sourceComponentId: "book", context: { name: "Ada Lovelace", arrival: "2025-06-01", room: ["double"] } });
    expect(new Date(actions[0]!.timestamp).toISOString()).toBe(actions[0]!.timestamp);
    expect($(".cagr-a2ui-sending").textContent).toBe("Sending…");
    expect(book.disabled).toBe(true);
    book.click();
    expect(actions).toHaveLength(1);
  });

  it("writes a choice and a checkbox to the data the action sends", () => {
    const { window, view, actions, byId, type } = setUp();
    const components = [...BOOKING.filter((c) => c.id !== "root"), { id: "root", component: "Column", children: ["name", "room", "news", "book"] }, { id: "news", component: "CheckBox", label: "News", value: { path: "/guest/news" } }];
    const book = components.find((c) => c.id === "book")!;
    (book.action as { event: { context: Record<string, unknown> } }).event.context.news = { path: "/guest/news" };
    view.show({ a2ui_operations: operations(components, BOOKING_DATA) });
    type(byId("name").querySelector("input")!, "Ada");
    const single = byId("room").querySelector<HTMLInputElement>('input[data-value="single"]')!;
    single.checked = true;
    single.dispatchEvent(new window.Event("change", { bubbles: true }));
    const news = byId("news").querySelector("input")!;
    news.checked = true;
    news.dispatchEvent(new window.Event("change", { bubbles: true }));
    byId("book").click();
    expect(actions[0]!.context).toEqual({ name: "Ada", arrival: "2025-06-01", room: ["single"], news: true });
  });

  it("shows a failing check and sends nothing", () => {
    const { view, actions, byId } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    byId("book").click();
    expect(actions).toHaveLength(0);
    expect(byId("name").querySelector(".cagr-a2ui-problem")!.textContent).toBe("Your name is required");
  });

  it("keeps what the person typed across cumulative snapshots", () => {
    const { view, byId, type, warnings, $ } = setUp();
    view.show({ status: "building" });
    expect($(".cagr-a2ui-skeleton")).not.toBeNull();
    expect(view.element.textContent).toContain("Building the form…");
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    type(byId("name").querySelector("input")!, "Grace");
    const more = [...BOOKING.filter((c) => c.id !== "root"), { id: "root", component: "Column", children: ["title", "name", "note", "book"] }, { id: "note", component: "Text", text: "We will confirm by email." }];
    view.show({ a2ui_operations: [...operations(BOOKING, BOOKING_DATA), ...operations(more, BOOKING_DATA)] });
    expect(warnings).toEqual([]);
    expect(byId("note").textContent).toBe("We will confirm by email.");
    expect(byId("name").querySelector("input")!.value).toBe("Grace");
  });

  it("keeps the person in the field they were typing in, caret and all, when a snapshot redraws the form", async () => {
    const { view, byId, type, document } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    const typing = byId("name").querySelector("input")!;
    typing.focus();
    type(typing, "Grace Hopper");
    typing.setSelectionRange(5, 5);
    const more = [...BOOKING.filter((c) => c.id !== "root"), { id: "root", component: "Column", children: ["title", "note", "name", "book"] }, { id: "note", component: "Text", text: "We will confirm by email." }];
    view.show({ a2ui_operations: operations(more, BOOKING_DATA) });
    await Promise.resolve();
    const redrawn = byId("name").querySelector("input")!;
    expect(redrawn).not.toBe(typing);
    expect(document.activeElement).toBe(redrawn);
    expect([redrawn.value, redrawn.selectionStart, redrawn.selectionEnd]).toEqual(["Grace Hopper", 5, 5]);
  });

  it("puts the person back in Carbon's text input, whose field is in its shadow root and drawn after it is connected", async () => {
    const { view, byId, window, document } = setUp();
    /** As Lit draws it: the shadow root's input comes a microtask after connection (`updateComplete`). */
    class TextInput extends window.HTMLElement {
      value = "";
      updateComplete = Promise.resolve();
      connectedCallback() {
        const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
        this.updateComplete = Promise.resolve().then(() => {
          const input = document.createElement("input");
          input.value = this.value;
          input.addEventListener("input", () => (this.value = input.value));
          root.replaceChildren(input);
        });
      }
    }
    window.customElements.define("cds-text-input", TextInput);
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    const host = byId("name").querySelector("cds-text-input") as TextInput;
    await host.updateComplete;
    const typing = host.shadowRoot!.querySelector("input")!;
    typing.focus();
    typing.value = "Grace Hopper";
    typing.dispatchEvent(new window.Event("input", { bubbles: true, composed: true }));
    host.dispatchEvent(new window.Event("input", { bubbles: true }));
    typing.setSelectionRange(2, 7);
    view.show({ a2ui_operations: operations([...BOOKING, { id: "note", component: "Text", text: "Hi" }], BOOKING_DATA) });
    const redrawn = byId("name").querySelector("cds-text-input") as TextInput;
    await redrawn.updateComplete;
    await Promise.resolve();
    const field = redrawn.shadowRoot!.querySelector("input")!;
    expect(redrawn).not.toBe(host);
    expect([document.activeElement, redrawn.shadowRoot!.activeElement]).toEqual([redrawn, field]);
    expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(["Grace Hopper", 2, 7]);
  });

  it("leaves the focus alone on a redraw when the person is not in the form", async () => {
    const { view, document, byId } = setUp();
    const elsewhere = document.body.appendChild(document.createElement("input"));
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    elsewhere.focus();
    view.show({ a2ui_operations: operations([...BOOKING, { id: "note", component: "Text", text: "Hi" }], BOOKING_DATA) });
    await Promise.resolve();
    expect(byId("name")).not.toBeNull();
    expect(document.activeElement).toBe(elsewhere);
  });

  it("extends the drawn form in place when a snapshot only adds to the last (the middleware's data): same elements, the person's edits kept", () => {
    const { view, byId, type, warnings } = setUp();
    const [create, components] = operations(BOOKING, BOOKING_DATA);
    view.show({ a2ui_operations: [create, components] });
    const field = byId("name").querySelector("input")!;
    type(field, "Grace");
    view.show({ a2ui_operations: operations(BOOKING, { ...BOOKING_DATA, stay: { ...BOOKING_DATA.stay, arrival: "2025-07-01" } }) });
    expect(byId("name").querySelector("input")).toBe(field);
    expect(field.value).toBe("Grace");
    expect((byId("arrival").querySelector("input") as HTMLInputElement).value).toBe("2025-07-01");
    expect(warnings).toEqual([]);
  });

  it("takes both ids of the basic catalog, and refuses another", () => {
    for (const catalogId of [MIDDLEWARE_CATALOG, WEB_CORE_CATALOG]) {
      const { view, byId } = setUp();
      view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA, catalogId) });
      expect(byId("title").textContent).toBe("Book a room");
    }
    const { view, warnings, $ } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA, "https://evil.example/catalog.json") });
    expect($("[data-a2ui-id]")).toBeNull();
    expect($(".cagr-a2ui-notification").textContent).toContain("The form could not be built");
    expect(warnings.join("\n")).toContain("https://evil.example/catalog.json");
  });
});

describe("createA2uiSurfaceView: lifecycle", () => {
  it("says why it failed, each error cut to 300 characters", () => {
    const { view, $ } = setUp();
    view.show({ status: "failed", error: "Bad JSON", errors: ["x".repeat(1000)] });
    const note = $(".cagr-a2ui-notification");
    expect(note.getAttribute("kind")).toBe("error");
    expect(note.textContent).toContain("The form could not be built");
    expect(note.textContent).toContain("Bad JSON");
    const lines = [...note.querySelectorAll("p")].map((p) => p.textContent!);
    expect(lines[1]!.length).toBe(301);
  });

  it("says it retries, with the attempt", () => {
    const { view, $ } = setUp();
    view.show({ status: "retrying", attempt: 2, maxAttempts: 3 });
    expect($(".cagr-a2ui-skeleton")).not.toBeNull();
    expect($(".cagr-a2ui-notification").getAttribute("kind")).toBe("warning");
    expect($(".cagr-a2ui-notification").textContent).toBe("Retrying (attempt 2 of 3)…");
  });
});

describe("createA2uiSurfaceView: modes", () => {
  it("stale disables every control, says so, and a click sends nothing", () => {
    const { view, actions, byId, type } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, { ...BOOKING_DATA, guest: { name: "Ada" } }) });
    view.setMode("stale");
    expect(view.element.textContent).toContain("This form belongs to an earlier answer.");
    const controls = [...view.element.querySelectorAll<HTMLInputElement>("input, button")];
    expect(controls.length).toBeGreaterThan(3);
    expect(controls.every((control) => control.disabled)).toBe(true);
    type(byId("name").querySelector("input")!, "Ada");
    byId("book").dispatchEvent(new (view.element.ownerDocument.defaultView!.Event)("click"));
    expect(actions).toEqual([]);
    view.setMode("live");
    expect(controls.every((control) => !control.disabled)).toBe(true);
  });

  it("dispose removes the element", () => {
    const { view, document } = setUp();
    view.show({ a2ui_operations: operations(BOOKING, BOOKING_DATA) });
    view.dispose();
    expect(document.querySelector(".cagr-a2ui")).toBeNull();
  });
});

describe("createA2uiSurfaceView: Carbon's web components", () => {
  it("uses the registered cds tags, reading their values from their own events", () => {
    const { window, view, actions, byId } = setUp();
    for (const tag of ["cds-text-input", "cds-button", "cds-radio-button-group", "cds-radio-button", "cds-tile", "cds-inline-loading"]) {
      window.customElements.define(tag, class extends window.HTMLElement {
        value = "";
        disabled = false;
      });
    }
    view.show({ a2ui_operations: operations([...BOOKING, { id: "arrival", component: "Card", child: "title" }], BOOKING_DATA) });
    const name = byId("name").querySelector("cds-text-input") as HTMLInputElement;
    expect(name.getAttribute("label")).toBe("Your name");
    name.value = "Ada";
    name.dispatchEvent(new window.Event("input"));
    const room = byId("room").querySelector("cds-radio-button-group") as HTMLInputElement;
    expect(room.getAttribute("legend-text")).toBe("Room type");
    expect(room.value).toBe("double");
    room.value = "single";
    room.dispatchEvent(new window.CustomEvent("cds-radio-button-group-changed", { detail: { value: "single" } }));
    expect(byId("arrival").localName).toBe("cds-tile");
    const book = byId("book");
    expect(book.localName).toBe("cds-button");
    expect(book.getAttribute("kind")).toBe("primary");
    book.click();
    expect(actions[0]!.context).toMatchObject({ name: "Ada", room: ["single"] });
    expect(view.element.querySelector("cds-inline-loading")!.textContent).toBe("Sending…");
    expect((name as unknown as { disabled: boolean }).disabled).toBe(true);
  });
});
