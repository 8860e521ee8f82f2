import type { A2uiSurfaceViewOptions } from "../../src/a2ui";
import { surfaceView, type Component } from "./surfaceSetup";

// Agent-made surfaces are untrusted: what each hostile one draws, refuses and reports.

const setUp = (options: Partial<A2uiSurfaceViewOptions> = {}) => surfaceView(options);

beforeEach(() => jest.spyOn(console, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe("createA2uiSurfaceView: hostile surfaces", () => {
  it("shows markup in a Text as text, creating no element from it", () => {
    const { view, byId, show } = setUp();
    const text = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    show([{ id: "root", component: "Text", text }]);
    expect(byId("root")!.textContent).toBe(text);
    expect(view.element.querySelector("script, img")).toBeNull();
  });

  it("sets no src from a javascript: or data: image URL, draws its description and warns", () => {
    const { view, warnings, byId, show } = setUp();
    show([
      { id: "root", component: "Column", children: ["js", "data", "ok"] },
      { id: "js", component: "Image", url: "javascript:alert(1)", description: "A script" },
      { id: "data", component: "Image", url: { path: "/picture" }, description: "Inline" },
      { id: "ok", component: "Image", url: "https://images.example/room.png", description: "The room" },
    ], { picture: "data:image/png;base64,iVBORw0KGgo=" });
    expect(byId("js")!.querySelector("img")).toBeNull();
    expect(byId("js")!.textContent).toBe("A script");
    expect(byId("data")!.querySelector("img")).toBeNull();
    const images = [...view.element.querySelectorAll("img")];
    expect(images.map((image) => [image.getAttribute("src"), image.getAttribute("referrerpolicy")])).toEqual([["https://images.example/room.png", "no-referrer"]]);
    expect(warnings.filter((warning) => warning.includes("refused"))).toHaveLength(2);
    expect(warnings.join("\n")).toMatch(/Image js.*javascript:/);
  });

  it("opens no javascript: URL from openUrl, and an https one without opener or referrer", () => {
    const { window, warnings, byId, show, actions } = setUp();
    const open = jest.fn();
    window.open = open as never;
    const button = (id: string, url: string): Component[] => [
      { id, component: "Button", child: `${id}-label`, action: { functionCall: { call: "openUrl", args: { url }, returnType: "void" } } },
      { id: `${id}-label`, component: "Text", text: id },
    ];
    show([{ id: "root", component: "Row", children: ["bad", "good"] }, ...button("bad", "javascript:alert(1)"), ...button("good", "https://example.com/terms")]);
    byId("bad")!.click();
    expect(open).not.toHaveBeenCalled();
    expect(warnings.join("\n")).toContain("openUrl was refused");
    byId("good")!.click();
    expect(open).toHaveBeenCalledWith("https://example.com/terms", "_blank", "noopener,noreferrer");
    expect(actions).toEqual([]);
  });

  it("tells the person beside the buttons when one calls a function the catalog does not have, and the host by onWarning", () => {
    const { warnings, byId, show, actions, view } = setUp();
    show([
      { id: "root", component: "Row", children: ["share"] },
      { id: "share", component: "Button", child: "share-label", action: { functionCall: { call: "shareToSocial", args: {}, returnType: "void" } } },
      { id: "share-label", component: "Text", text: "Share" },
    ]);
    byId("share")!.click();
    expect(view.element.querySelector(".cagr-a2ui-note")?.textContent).toBe('This button does nothing here: this chat has no "shareToSocial" to run.');
    expect(warnings).toEqual(["A2UI surface booking: button share calls shareToSocial, which the catalog does not have"]);
    expect(actions).toEqual([]);
  });

  it("draws nothing of 10,000 components, quickly, and names the limit and the count", () => {
    const { view, warnings, show } = setUp();
    const many: Component[] = [{ id: "root", component: "Column", children: Array.from({ length: 9_999 }, (_, i) => `t${i}`) }, ...Array.from({ length: 9_999 }, (_, i) => ({ id: `t${i}`, component: "Text", text: "x" }))];
    const started = Date.now();
    show(many);
    expect(Date.now() - started).toBeLessThan(500);
    expect(view.element.querySelector("[data-a2ui-id]")).toBeNull();
    expect(view.element.textContent).toContain("The form is too large to show");
    expect(warnings).toEqual(["The surface has more than 1000 components (10000)."]);
  });

  it("stops a cycle of children, with a warning", () => {
    const { warnings, byId, show } = setUp();
    show([
      { id: "root", component: "Column", children: ["a"] },
      { id: "a", component: "Column", children: ["b"] },
      { id: "b", component: "Column", children: ["a"] },
    ]);
    expect(byId("a")!.querySelector('[data-a2ui-id="b"]')!.children).toHaveLength(0);
    expect(warnings.some((warning) => /referenced by one of its own descendants/.test(warning))).toBe(true);
  });

  it("refuses nesting deeper than the limit", () => {
    const { warnings, byId, show } = setUp({ limits: { depth: 5 } });
    const chain: Component[] = Array.from({ length: 8 }, (_, i) => ({ id: i === 0 ? "root" : `c${i}`, component: "Column", children: i < 7 ? [`c${i + 1}`] : [] }));
    show(chain);
    expect(byId("root")).toBeNull();
    expect(warnings).toEqual(["The surface nests components more than 5 deep."]);
  });

  it("refuses data over the limit", () => {
    const { view, warnings, show } = setUp();
    show([{ id: "root", component: "Text", text: { path: "/big" } }], { big: "x".repeat(300 * 1024) });
    expect(view.element.querySelector("[data-a2ui-id]")).toBeNull();
    expect(warnings).toEqual([`The surface's data is ${300 * 1024 + 10} bytes, more than the 262144 allowed.`]);
  });

  it("draws the first items of a long template list, once warned", () => {
    const { byId, warnings, show } = setUp({ limits: { templateItems: 3 } });
    show([{ id: "root", component: "List", children: { componentId: "item", path: "/rooms" } }, { id: "item", component: "Text", text: { path: "name" } }], { rooms: Array.from({ length: 10 }, (_, i) => ({ name: `Room ${i}` })) });
    expect([...byId("root")!.children].map((child) => child.textContent)).toEqual(["Room 0", "Room 1", "Room 2"]);
    expect(warnings).toEqual(["Component root lists 10 items: the first 3 are drawn."]);
  });

  it("skips an unknown component type with one warning, drawing the rest", () => {
    const { byId, warnings, show } = setUp();
    show([
      { id: "root", component: "Column", children: ["x1", "x2", "ok"] },
      { id: "x1", component: "IFrame", src: "https://evil.example" },
      { id: "x2", component: "IFrame", src: "https://evil.example" },
      { id: "ok", component: "Text", text: "Still here" },
    ]);
    expect(byId("ok")!.textContent).toBe("Still here");
    expect(byId("x1")).toBeNull();
    expect(warnings).toEqual(['Component type "IFrame" is not in the basic catalog: components of that type are not drawn.']);
  });

  it("does not draw an obscured field unless allowed", () => {
    const password: Component[] = [{ id: "root", component: "TextField", label: "Bank password", variant: "obscured", value: { path: "/secret" } }];
    const refused = setUp();
    refused.show(password);
    expect(refused.view.element.querySelector("input")).toBeNull();
    expect(refused.view.element.textContent).toContain("This form asks for a secret (Bank password), which the chat does not collect");
    expect(refused.warnings).toEqual(["TextField root asks for a secret (an obscured field): not drawn."]);
    const allowed = setUp({ allowObscured: true });
    allowed.show(password);
    expect(allowed.view.element.querySelector("input")!.getAttribute("type")).toBe("password");
  });

  it("skips a bad or long pattern with a warning, and the check passes", () => {
    const { warnings, byId, show, actions } = setUp();
    show([
      { id: "root", component: "Column", children: ["bad", "long", "go"] },
      { id: "bad", component: "TextField", label: "Bad", value: "x", validationRegexp: "(" },
      { id: "long", component: "TextField", label: "Long", value: { path: "/v" }, checks: [{ condition: { call: "regex", args: { value: { path: "/v" }, pattern: "a".repeat(201) } }, message: "No" }] },
      { id: "go", component: "Button", child: "go-label", action: { event: { name: "go" } } },
      { id: "go-label", component: "Text", text: "Go" },
    ], { v: "b" });
    byId("go")!.click();
    expect(actions).toHaveLength(1);
    expect(warnings).toContain("A check's pattern does not compile: the check is skipped.");
    expect(warnings).toContain("A check's pattern is 201 characters long, more than 200: the check is skipped.");
  });
});
