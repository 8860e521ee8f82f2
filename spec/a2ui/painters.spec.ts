import type { A2uiSurfaceViewOptions } from "../../src/a2ui";
import { operations, surfaceView, type Component } from "./surfaceSetup";

// Each painter of the basic catalog, native and with Carbon's tag registered (a stub custom element):
// what it draws from the data, what the person's change writes (and a Button's action sends), and stale mode.

type Control = HTMLElement & { value: string; checked: boolean; disabled: boolean };

/** A root Column of `children` then a Book button sending `context` (bindings as `{ path }`). */
function form(children: string[], components: Component[], context: Record<string, unknown>): Component[] {
  return [
    { id: "root", component: "Column", children: [...children, "book"] },
    ...components,
    { id: "book-label", component: "Text", text: "Book" },
    { id: "book", component: "Button", child: "book-label", variant: "primary", action: { event: { name: "book_room", context } } },
  ];
}

function setUp(options: Partial<A2uiSurfaceViewOptions> = {}) {
  const drawn = surfaceView(options);
  const { window, byId, actions } = drawn;
  /** Registers stub custom elements for Carbon's `tags`, with the properties the painters read. */
  const carbon = (...tags: string[]) => {
    for (const tag of tags) {
      window.customElements.define(
        tag,
        class extends window.HTMLElement {
          value = "";
          checked = false;
          disabled = false;
        },
      );
    }
  };
  /** The person's change: `value` or `checked` set, then the event the painter listens to. */
  const change = (element: Element, set: { value?: string; checked?: boolean }, event: string, detail?: unknown) => {
    const control = element as Control;
    if (set.value !== undefined) control.value = set.value;
    if (set.checked !== undefined) control.checked = set.checked;
    control.dispatchEvent(detail === undefined && !event.startsWith("cds-") ? new window.Event(event, { bubbles: true }) : new window.CustomEvent(event, { bubbles: true, composed: true, detail }));
  };
  const book = () => {
    byId("book").click();
    return actions.at(-1);
  };
  return { ...drawn, carbon, change, book };
}

const texts = (elements: Iterable<Element>) => [...elements].map((element) => element.textContent);

beforeEach(() => jest.spyOn(console, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe("painters: Tabs", () => {
  const TABS = form(
    ["tabs"],
    [
      { id: "tabs", component: "Tabs", tabs: [{ title: "Room", child: "room-text" }, { title: { path: "/labels/extras" }, child: "news" }] },
      { id: "room-text", component: "Text", text: { path: "/stay/room" } },
      { id: "news", component: "CheckBox", label: "Send me news", value: { path: "/guest/news" } },
    ],
    { news: { path: "/guest/news" } },
  );
  const DATA = { labels: { extras: "Extras" }, stay: { room: "Double room" }, guest: { news: false } };

  it("native: a tab list of buttons, the first tab's panel shown; a click switches, and a field in a hidden panel still sends", () => {
    const { view, byId, show, change, book } = setUp();
    show(TABS, DATA);
    const tabs = byId("tabs");
    const strip = tabs.querySelector(".cagr-a2ui-tab-list")!;
    expect(strip.getAttribute("role")).toBe("tablist");
    const buttons = [...strip.querySelectorAll("button")];
    expect(texts(buttons)).toEqual(["Room", "Extras"]);
    expect(buttons.map((button) => [button.getAttribute("role"), button.getAttribute("type")])).toEqual([["tab", "button"], ["tab", "button"]]);
    const panels = [...tabs.querySelectorAll(".cagr-a2ui-tab-panel")];
    expect(texts(panels)).toEqual(["Double room", "Send me news"]);
    const state = () => [buttons.map((button) => button.getAttribute("aria-selected")), panels.map((panel) => panel.hasAttribute("hidden"))];
    expect(state()).toEqual([["true", "false"], [false, true]]);
    buttons[1]!.click();
    expect(state()).toEqual([["false", "true"], [true, false]]);
    change(byId("news").querySelector("input")!, { checked: true }, "change");
    buttons[0]!.click();
    expect(state()).toEqual([["true", "false"], [false, true]]);
    expect(book()!.context).toEqual({ news: true });
    view.setMode("stale");
    expect(buttons.every((button) => button.disabled)).toBe(true);
  });

  it("Carbon: cds-tabs with a cds-tab per title; cds-tabs-selected shows the chosen tab's panel", () => {
    const { window, view, byId, show, carbon } = setUp();
    carbon("cds-tabs", "cds-tab");
    show(TABS, DATA);
    const strip = byId("tabs").querySelector("cds-tabs")!;
    expect(strip.getAttribute("role")).toBeNull();
    const items = [...strip.querySelectorAll("cds-tab")];
    expect(items.map((item) => [item.textContent, item.getAttribute("value")])).toEqual([["Room", "0"], ["Extras", "1"]]);
    expect(byId("tabs").querySelectorAll("button")).toHaveLength(0);
    const panels = [...byId("tabs").querySelectorAll(".cagr-a2ui-tab-panel")];
    expect(panels.map((panel) => panel.hasAttribute("hidden"))).toEqual([false, true]);
    strip.dispatchEvent(new window.CustomEvent("cds-tabs-selected", { bubbles: true, composed: true, detail: { item: items[1] } }));
    expect(panels.map((panel) => panel.hasAttribute("hidden"))).toEqual([true, false]);
    strip.dispatchEvent(new window.CustomEvent("cds-tabs-selected", { bubbles: true, composed: true, detail: { item: items[0] } }));
    expect(panels.map((panel) => panel.hasAttribute("hidden"))).toEqual([false, true]);
    view.setMode("stale");
    expect(items.map((item) => (item as Control).disabled)).toEqual([true, true]);
  });

  it("Carbon: only the chosen cds-tab carries `selected` (a boolean attribute: selected=\"false\" selects it too)", () => {
    const { window, byId, show, carbon } = setUp();
    carbon("cds-tabs", "cds-tab");
    show(TABS, DATA);
    const strip = byId("tabs").querySelector("cds-tabs")!;
    const items = [...strip.querySelectorAll("cds-tab")];
    expect(items.map((item) => item.hasAttribute("selected"))).toEqual([true, false]);
    strip.dispatchEvent(new window.CustomEvent("cds-tabs-selected", { bubbles: true, composed: true, detail: { item: items[1] } }));
    expect(items.map((item) => item.hasAttribute("selected"))).toEqual([false, true]);
  });
});

describe("painters: Modal", () => {
  const MODAL = form(
    ["details"],
    [
      { id: "details", component: "Modal", trigger: "open", content: "content" },
      { id: "open-label", component: "Text", text: "Room details" },
      { id: "open", component: "Button", child: "open-label" },
      { id: "content", component: "Column", children: ["about", "late"] },
      { id: "about", component: "Text", text: { path: "/stay/about" } },
      { id: "late", component: "CheckBox", label: "Late checkout", value: { path: "/stay/late" } },
    ],
    { late: { path: "/stay/late" } },
  );
  const DATA = { stay: { about: "Breakfast is included.", late: false } };

  it("native: the trigger in place, a closed dialog that it opens and Close closes; a field inside sends", () => {
    const { view, actions, byId, show, change, book } = setUp();
    show(MODAL, DATA);
    const modal = byId("details");
    const trigger = modal.querySelector(".cagr-a2ui-modal-trigger")!;
    expect(trigger.textContent).toBe("Room details");
    const dialog = modal.querySelector("dialog")!;
    expect(dialog.hasAttribute("open")).toBe(false);
    expect(dialog.querySelector(".cagr-a2ui-dialog-body")!.textContent).toBe("Breakfast is included.Late checkout");
    byId("open").click();
    expect(dialog.hasAttribute("open")).toBe(true);
    expect(actions).toEqual([]);
    change(byId("late").querySelector("input")!, { checked: true }, "change");
    const close = [...dialog.querySelectorAll("button")].find((button) => button.textContent === "Close")!;
    close.click();
    expect(dialog.hasAttribute("open")).toBe(false);
    expect(book()!.context).toEqual({ late: true });
    view.setMode("stale");
    expect([close.disabled, byId<HTMLButtonElement>("open").disabled, byId("late").querySelector("input")!.disabled]).toEqual([true, true, true]);
  });

  it("Carbon: cds-modal with its header's close button and a cds-modal-body, opened by the trigger", () => {
    const { byId, show, carbon } = setUp();
    carbon("cds-modal");
    show(MODAL, DATA);
    const modal = byId("details").querySelector("cds-modal")!;
    expect([...modal.children].map((child) => child.localName)).toEqual(["cds-modal-header", "cds-modal-body"]);
    expect(modal.querySelector("cds-modal-header > cds-modal-close-button")).not.toBeNull();
    expect(modal.querySelector("cds-modal-body")!.textContent).toBe("Breakfast is included.Late checkout");
    expect(modal.querySelector("button:not([data-a2ui-id])")).toBeNull();
    expect(modal.hasAttribute("open")).toBe(false);
    byId("open").click();
    expect(modal.hasAttribute("open")).toBe(true);
  });
});

describe("painters: ChoicePicker", () => {
  const ROOMS = ["single", "double", "twin", "suite", "loft", "family", "studio"].map((value) => ({ label: value[0]!.toUpperCase() + value.slice(1), value }));
  const picker = (count: number, extra: Record<string, unknown> = {}) =>
    form(["room"], [{ id: "room", component: "ChoicePicker", label: "Room type", variant: "mutuallyExclusive", options: ROOMS.slice(0, count), value: { path: "/stay/room" }, ...extra }], { room: { path: "/stay/room" } });

  it("native: six options are radios, seven a select (a blank first), its value from the data; a change sends the chosen one", () => {
    const six = setUp();
    six.show(picker(6), { stay: { room: ["suite"] } });
    expect(six.byId("room").querySelector("select")).toBeNull();
    const radios = [...six.byId("room").querySelectorAll<HTMLInputElement>("input[type=radio]")];
    expect(radios.map((radio) => [radio.dataset.value, radio.checked])).toEqual(ROOMS.slice(0, 6).map(({ value }) => [value, value === "suite"]));

    const { view, byId, show, change, book } = setUp();
    show(picker(7), { stay: { room: ["suite"] } });
    const select = byId("room").querySelector("select")!;
    expect(select.getAttribute("aria-label")).toBe("Room type");
    expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([["", ""], ...ROOMS.map(({ label, value }) => [value, label])]);
    expect(select.value).toBe("suite");
    change(select, { value: "loft" }, "change");
    expect(book()!.context).toEqual({ room: ["loft"] });
    view.setMode("stale");
    expect(select.disabled).toBe(true);
  });

  it("native: choosing the blank option sends no room", () => {
    const { byId, show, change, book } = setUp();
    show(picker(7), { stay: { room: ["twin"] } });
    change(byId("room").querySelector("select")!, { value: "" }, "change");
    expect(book()!.context).toEqual({ room: [] });
  });

  it("Carbon: cds-dropdown with a cds-dropdown-item per option, titled, its value from the data; cds-dropdown-selected sends", () => {
    const { view, byId, show, carbon, change, book } = setUp();
    carbon("cds-dropdown", "cds-dropdown-item");
    show(picker(7), { stay: { room: ["suite"] } });
    const dropdown = byId("room").querySelector("cds-dropdown")! as Control;
    expect(dropdown.getAttribute("title-text")).toBe("Room type");
    const items = [...dropdown.querySelectorAll("cds-dropdown-item")];
    expect(items.map((item) => [item.getAttribute("value"), item.textContent])).toEqual(ROOMS.map(({ label, value }) => [value, label]));
    expect(dropdown.value).toBe("suite");
    change(dropdown, { value: "studio" }, "cds-dropdown-selected", { item: items[6] });
    expect(book()!.context).toEqual({ room: ["studio"] });
    view.setMode("stale");
    expect(dropdown.disabled).toBe(true);
  });

  const EXTRAS = form(
    ["extras"],
    [
      {
        id: "extras",
        component: "ChoicePicker",
        label: "Extras",
        variant: "multipleSelection",
        options: [
          { label: "Breakfast", value: "breakfast" },
          { label: "Wi-Fi", value: "wifi" },
          { label: "Parking", value: "parking" },
        ],
        value: { path: "/stay/extras" },
      },
    ],
    { extras: { path: "/stay/extras" } },
  );

  it("native: multipleSelection is a fieldset of checkboxes checked from the data; a change sends the checked ones in order", () => {
    const { view, byId, show, change, book } = setUp();
    show(EXTRAS, { stay: { extras: ["wifi", "parking"] } });
    const fieldset = byId("extras").querySelector("fieldset")!;
    expect(fieldset.querySelector("legend")!.textContent).toBe("Extras");
    const boxes = [...fieldset.querySelectorAll<HTMLInputElement>("input")];
    expect(boxes.map((box) => [box.type, box.closest("label")!.textContent, box.checked])).toEqual([
      ["checkbox", "Breakfast", false],
      ["checkbox", "Wi-Fi", true],
      ["checkbox", "Parking", true],
    ]);
    change(boxes[1]!, { checked: false }, "change");
    change(boxes[0]!, { checked: true }, "change");
    expect(book()!.context).toEqual({ extras: ["breakfast", "parking"] });
    view.setMode("stale");
    expect(boxes.map((box) => box.disabled)).toEqual([true, true, true]);
  });

  it("Carbon: multipleSelection is cds-checkboxes; cds-checkbox-changed sends the checked ones", () => {
    const { view, byId, show, carbon, change, book } = setUp();
    carbon("cds-checkbox");
    show(EXTRAS, { stay: { extras: ["wifi"] } });
    const boxes = [...byId("extras").querySelectorAll<Control>("cds-checkbox")];
    expect(boxes.map((box) => [box.getAttribute("label-text"), box.dataset.value, box.checked])).toEqual([
      ["Breakfast", "breakfast", false],
      ["Wi-Fi", "wifi", true],
      ["Parking", "parking", false],
    ]);
    expect(byId("extras").querySelector("input")).toBeNull();
    change(boxes[2]!, { checked: true }, "cds-checkbox-changed", { checked: true, indeterminate: false });
    expect(book()!.context).toEqual({ extras: ["wifi", "parking"] });
    view.setMode("stale");
    expect(boxes.map((box) => box.disabled)).toEqual([true, true, true]);
  });
});

describe("painters: inputs", () => {
  const NEWS = form(["news"], [{ id: "news", component: "CheckBox", label: "Send me news", value: { path: "/guest/news" } }], { news: { path: "/guest/news" } });

  it("native CheckBox: checked from the data, an unchecking sends false", () => {
    const { view, byId, show, change, book } = setUp();
    show(NEWS, { guest: { news: true } });
    const box = byId("news").querySelector("input")!;
    expect([box.type, box.checked, box.closest("label")!.textContent]).toEqual(["checkbox", true, "Send me news"]);
    change(box, { checked: false }, "change");
    expect(book()!.context).toEqual({ news: false });
    view.setMode("stale");
    expect(box.disabled).toBe(true);
  });

  it("Carbon CheckBox: cds-checkbox labelled, checked from the data; cds-checkbox-changed sends", () => {
    const { view, byId, show, carbon, change, book } = setUp();
    carbon("cds-checkbox");
    show(NEWS, { guest: { news: true } });
    const box = byId("news").querySelector<Control>("cds-checkbox")!;
    expect([box.getAttribute("label-text"), box.textContent, box.checked]).toEqual(["Send me news", "Send me news", true]);
    change(box, { checked: false }, "cds-checkbox-changed", { checked: false, indeterminate: false });
    expect(book()!.context).toEqual({ news: false });
    view.setMode("stale");
    expect(box.disabled).toBe(true);
  });

  const NIGHTS = form(["nights"], [{ id: "nights", component: "Slider", label: "Nights", min: 1, max: 14, value: { path: "/stay/nights" } }], { nights: { path: "/stay/nights" } });

  it("native Slider: a range between min and max, its value from the data; input sends a number", () => {
    const { view, byId, show, change, book } = setUp();
    show(NIGHTS, { stay: { nights: 4 } });
    const slider = byId("nights").querySelector("input")!;
    expect([slider.type, slider.min, slider.max, slider.value]).toEqual(["range", "1", "14", "4"]);
    expect(slider.closest("label")!.textContent).toBe("Nights");
    change(slider, { value: "9" }, "input");
    expect(book()!.context).toEqual({ nights: 9 });
    view.setMode("stale");
    expect(slider.disabled).toBe(true);
  });

  it("Carbon Slider: cds-slider labelled, min and max, its value from the data; cds-slider-changed sends a number", () => {
    const { view, byId, show, carbon, change, book } = setUp();
    carbon("cds-slider");
    show(NIGHTS, { stay: { nights: 4 } });
    const slider = byId("nights").querySelector<Control>("cds-slider")!;
    expect([slider.getAttribute("label-text"), slider.getAttribute("min"), slider.getAttribute("max"), String(slider.value)]).toEqual(["Nights", "1", "14", "4"]);
    change(slider, { value: "12" }, "cds-slider-changed", { value: 12 });
    expect(book()!.context).toEqual({ nights: 12 });
    view.setMode("stale");
    expect(slider.disabled).toBe(true);
  });

  it("DateTimeInput: date, time or datetime-local as enableDate and enableTime say, with min and max; a change sends the text", () => {
    const { view, byId, show, change, book } = setUp();
    show(
      form(
        ["arrival", "time", "when", "plain"],
        [
          { id: "arrival", component: "DateTimeInput", label: "Arrival", enableDate: true, min: "2025-01-01", max: "2025-12-31", value: { path: "/stay/arrival" } },
          { id: "time", component: "DateTimeInput", label: "Check-in time", enableTime: true, value: { path: "/stay/time" } },
          { id: "when", component: "DateTimeInput", label: "Taxi", enableDate: true, enableTime: true, value: { path: "/stay/taxi" } },
          { id: "plain", component: "DateTimeInput", value: "" },
        ],
        { arrival: { path: "/stay/arrival" }, time: { path: "/stay/time" }, taxi: { path: "/stay/taxi" } },
      ),
      { stay: { arrival: "2025-06-01", time: "15:30", taxi: "2025-06-01T09:00" } },
    );
    const input = (id: string) => byId(id).querySelector("input")!;
    expect(["arrival", "time", "when", "plain"].map((id) => [input(id).type, input(id).value])).toEqual([
      ["date", "2025-06-01"],
      ["time", "15:30"],
      ["datetime-local", "2025-06-01T09:00"],
      ["date", ""],
    ]);
    expect([input("arrival").min, input("arrival").max]).toEqual(["2025-01-01", "2025-12-31"]);
    expect(input("arrival").closest("label")!.textContent).toBe("Arrival");
    change(input("arrival"), { value: "2025-07-14" }, "change");
    change(input("time"), { value: "18:00" }, "input");
    expect(book()!.context).toEqual({ arrival: "2025-07-14", time: "18:00", taxi: "2025-06-01T09:00" });
    view.setMode("stale");
    expect(["arrival", "time", "when"].map((id) => input(id).disabled)).toEqual([true, true, true]);
  });

  it("DateTimeInput: a min and max bound to the data (the schema's DynamicString) are the data's dates", () => {
    const { byId, show } = setUp();
    show(
      [{ id: "root", component: "DateTimeInput", label: "Arrival", enableDate: true, min: { path: "/limits/first" }, max: { path: "/limits/last" }, value: { path: "/stay/arrival" } }],
      { limits: { first: "2025-01-01", last: "2025-12-31" }, stay: { arrival: "2025-06-01" } },
    );
    const input = byId("root").querySelector("input")!;
    expect([input.getAttribute("min"), input.getAttribute("max")]).toEqual(["2025-01-01", "2025-12-31"]);
  });

  const TEXTS = form(
    ["guests", "notes"],
    [
      { id: "guests", component: "TextField", label: "Guests", variant: "number", value: { path: "/stay/guests" } },
      { id: "notes", component: "TextField", label: "Notes", variant: "longText", value: { path: "/stay/notes" } },
    ],
    { guests: { path: "/stay/guests" }, notes: { path: "/stay/notes" } },
  );

  it("native TextField: number is a number input sending a number, longText a textarea sending its text", () => {
    const { view, byId, show, change, book } = setUp();
    show(TEXTS, { stay: { guests: 2, notes: "Quiet room" } });
    const guests = byId("guests").querySelector("input")!;
    const notes = byId("notes").querySelector("textarea")!;
    expect([guests.type, guests.value, notes.value]).toEqual(["number", "2", "Quiet room"]);
    expect([guests.closest("label")!.textContent, notes.closest("label")!.textContent]).toEqual(["Guests", "Notes"]);
    change(guests, { value: "3" }, "input");
    change(notes, { value: "Quiet room\nHigh floor" }, "input");
    expect(book()!.context).toEqual({ guests: 3, notes: "Quiet room\nHigh floor" });
    view.setMode("stale");
    expect([guests.disabled, notes.disabled]).toEqual([true, true]);
  });

  it("Carbon TextField: number is a cds-text-input of type number, longText a cds-textarea, labelled", () => {
    const { byId, show, carbon, change, book } = setUp();
    carbon("cds-text-input", "cds-textarea");
    show(TEXTS, { stay: { guests: 2, notes: "Quiet room" } });
    const guests = byId("guests").querySelector<Control>("cds-text-input")!;
    const notes = byId("notes").querySelector<Control>("cds-textarea")!;
    expect([guests.getAttribute("type"), guests.getAttribute("label"), guests.value]).toEqual(["number", "Guests", "2"]);
    expect([notes.hasAttribute("type"), notes.getAttribute("label"), notes.value]).toEqual([false, "Notes", "Quiet room"]);
    change(guests, { value: "5" }, "input");
    change(notes, { value: "Late arrival" }, "input");
    expect(book()!.context).toEqual({ guests: 5, notes: "Late arrival" });
  });
});

describe("painters: media", () => {
  it("Image: an img from an https URL with no referrer, its description as alt, its fit and variant", () => {
    const { byId, show, warnings } = setUp();
    show([
      { id: "root", component: "Column", children: ["photo"] },
      { id: "photo", component: "Image", url: { path: "/room/photo" }, description: "The double room", fit: "scaleDown", variant: "mediumFeature" },
    ], { room: { photo: "https://images.example/double.jpg" } });
    const photo = byId("photo");
    expect(photo.dataset.variant).toBe("mediumFeature");
    const image = photo.querySelector("img")!;
    expect([image.getAttribute("src"), image.getAttribute("referrerpolicy"), image.getAttribute("alt"), image.style.objectFit]).toEqual(["https://images.example/double.jpg", "no-referrer", "The double room", "scale-down"]);
    expect(warnings).toEqual([]);
  });

  it("Video and AudioPlayer: players with controls, preload none, never autoplaying; an http URL is refused with a note", () => {
    const { view, byId, show, warnings } = setUp();
    show([
      { id: "root", component: "Column", children: ["tour", "welcome", "old"] },
      { id: "tour", component: "Video", url: "https://media.example/tour.mp4" },
      { id: "welcome", component: "AudioPlayer", url: { path: "/audio" }, description: "A welcome from the front desk" },
      { id: "old", component: "Video", url: "http://media.example/old.mp4" },
    ], { audio: "https://media.example/welcome.mp3" });
    const video = byId("tour").querySelector("video")!;
    expect([video.getAttribute("src"), video.hasAttribute("controls"), video.getAttribute("preload"), video.hasAttribute("autoplay")]).toEqual(["https://media.example/tour.mp4", true, "none", false]);
    const audio = byId("welcome").querySelector("audio")!;
    expect([audio.getAttribute("src"), audio.hasAttribute("controls"), audio.getAttribute("preload"), audio.hasAttribute("autoplay")]).toEqual(["https://media.example/welcome.mp3", true, "none", false]);
    expect(byId("welcome").querySelector(".cagr-a2ui-text-caption")!.textContent).toBe("A welcome from the front desk");
    expect(byId("old").querySelector("video")).toBeNull();
    expect(byId("old").textContent).toBe("This video is not shown: its address is not allowed.");
    expect(view.element.querySelectorAll("video, audio")).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The url of Video old was refused/);
  });

  it("Icon: its name as a small label", () => {
    const { byId, show } = setUp();
    show([
      { id: "root", component: "Row", children: ["calendar", "mail"] },
      { id: "calendar", component: "Icon", name: "calendarToday" },
      { id: "mail", component: "Icon", name: "mail" },
    ]);
    expect([byId("calendar").className, byId("calendar").textContent, byId("mail").textContent]).toEqual(["cagr-a2ui-icon", "calendar today", "mail"]);
  });

  it("Icon: a name bound to the data follows it when the data comes in a later snapshot", () => {
    const { view, byId, warnings } = setUp();
    const components = [
      { id: "root", component: "Row", children: ["kind"] },
      { id: "kind", component: "Icon", name: { path: "/stay/icon" } },
    ];
    const [create, update] = operations(components);
    view.show({ a2ui_operations: [create, update] });
    view.show({ a2ui_operations: [create, update, { version: "v0.9", updateDataModel: { surfaceId: "booking", path: "/", value: { stay: { icon: "shoppingCart" } } } }] });
    expect(byId("kind").textContent).toBe("shopping cart");
    expect(warnings).toEqual([]);
  });
});

describe("painters: layout", () => {
  it("Row, Column, List and Card: their children in order, justify, align and direction as data attributes, a List with role list", () => {
    const { byId, show } = setUp();
    show([
      { id: "root", component: "Column", justify: "spaceBetween", align: "center", children: ["row", "list", "card"] },
      { id: "row", component: "Row", justify: "end", children: ["a", "b"] },
      { id: "list", component: "List", direction: "horizontal", children: ["c", "a2"] },
      { id: "card", component: "Card", child: "d" },
      { id: "a", component: "Text", text: "A" },
      { id: "b", component: "Text", text: "B", weight: 2 },
      { id: "c", component: "Text", text: "C" },
      { id: "a2", component: "Text", text: "A2" },
      { id: "d", component: "Text", text: "D" },
    ]);
    const root = byId("root");
    expect([root.className, root.dataset.justify, root.dataset.align]).toEqual(["cagr-a2ui-flex cagr-a2ui-column", "spaceBetween", "center"]);
    expect([...root.children].map((child) => child.getAttribute("data-a2ui-id"))).toEqual(["row", "list", "card"]);
    expect([byId("row").className, byId("row").dataset.justify, texts(byId("row").children).join()]).toEqual(["cagr-a2ui-flex cagr-a2ui-row", "end", "A,B"]);
    expect(byId("b").style.flexGrow).toBe("2");
    expect([byId("list").getAttribute("role"), byId("list").dataset.direction, texts(byId("list").children).join()]).toEqual(["list", "horizontal", "C,A2"]);
    expect([byId("card").localName, byId("card").className, byId("card").textContent]).toEqual(["div", "cagr-a2ui-card", "D"]);
  });

  it("Carbon: a Card is a cds-tile around its child", () => {
    const { byId, show, carbon } = setUp();
    carbon("cds-tile");
    show([
      { id: "root", component: "Card", child: "d" },
      { id: "d", component: "Text", text: "Inside" },
    ]);
    expect([byId("root").localName, byId("root").className, byId("root").textContent]).toEqual(["cds-tile", "cagr-a2ui-card", "Inside"]);
  });

  const ROOM_LIST = form(
    ["rooms"],
    [
      { id: "rooms", component: "List", children: { componentId: "room", path: "/rooms" } },
      { id: "room", component: "Card", child: "room-row" },
      { id: "room-row", component: "Row", children: ["room-name", "room-price", "room-pick"] },
      { id: "room-name", component: "Text", text: { path: "name" } },
      { id: "room-price", component: "Text", text: { path: "price" } },
      { id: "room-pick", component: "CheckBox", label: { path: "name" }, value: { path: "chosen" } },
    ],
    { rooms: { path: "/rooms" } },
  );
  const ROOMS_DATA = {
    rooms: [
      { name: "Single", price: "90 €", chosen: false },
      { name: "Double", price: "120 €", chosen: false },
      { name: "Suite", price: "250 €", chosen: true },
    ],
  };

  it("a template List draws an item per data entry, each reading its own relative paths, and writes a change to its own entry", () => {
    const { byId, show, change, book, warnings, view } = setUp();
    show(ROOM_LIST, ROOMS_DATA);
    const items = [...byId("rooms").children];
    expect(items.map((item) => [item.querySelector('[data-a2ui-id="room-name"]')!.textContent, item.querySelector('[data-a2ui-id="room-price"]')!.textContent])).toEqual([
      ["Single", "90 €"],
      ["Double", "120 €"],
      ["Suite", "250 €"],
    ]);
    const picks = items.map((item) => item.querySelector("input")!);
    expect(picks.map((pick) => [pick.closest("label")!.textContent, pick.checked])).toEqual([
      ["Single", false],
      ["Double", false],
      ["Suite", true],
    ]);
    change(picks[1]!, { checked: true }, "change");
    expect(book()!.context).toEqual({
      rooms: [
        { name: "Single", price: "90 €", chosen: false },
        { name: "Double", price: "120 €", chosen: true },
        { name: "Suite", price: "250 €", chosen: true },
      ],
    });
    expect(warnings).toEqual([]);
    view.setMode("stale");
    expect(picks.map((pick) => pick.disabled)).toEqual([true, true, true]);
  });

  it("a template List follows its data: an added entry is drawn on the next snapshot", () => {
    const { byId, view, warnings } = setUp();
    view.show({ a2ui_operations: operations(ROOM_LIST, ROOMS_DATA) });
    const more = { rooms: [...ROOMS_DATA.rooms, { name: "Loft", price: "180 €", chosen: false }] };
    view.show({ a2ui_operations: [...operations(ROOM_LIST, ROOMS_DATA), { version: "v0.9", updateDataModel: { surfaceId: "booking", path: "/", value: more } }] });
    expect(texts(byId("rooms").querySelectorAll('[data-a2ui-id="room-name"]'))).toEqual(["Single", "Double", "Suite", "Loft"]);
    expect(warnings).toEqual([]);
  });

  it("a template List draws at most templateItems entries, and warns once", () => {
    const { byId, show, warnings } = setUp({ limits: { templateItems: 2 } });
    show(ROOM_LIST, ROOMS_DATA);
    expect(texts(byId("rooms").querySelectorAll('[data-a2ui-id="room-name"]'))).toEqual(["Single", "Double"]);
    expect(warnings).toEqual(["Component rooms lists 3 items: the first 2 are drawn."]);
  });
});
