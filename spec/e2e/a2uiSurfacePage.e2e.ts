import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium, PAGE_OPTIONS } from "./browser";

/**
 * One A2UI surface drawn with Carbon's real web components in Chromium, no chat (examples/web/surfacePage.ts, built
 * by `npm run build:demo`): the spec shows it snapshots directly and checks what Carbon's components do with them.
 */
const SURFACE_PAGE = join(__dirname, "../../examples/web/dist/surface.js");
const CATALOG = "https://a2ui.org/specification/v0_9/basic_catalog.json";
const operations = (components: object[]) => [
  { version: "v0.9", createSurface: { surfaceId: "page", catalogId: CATALOG } },
  { version: "v0.9", updateComponents: { surfaceId: "page", components } },
  { version: "v0.9", updateDataModel: { surfaceId: "page", path: "/", value: { name: "" } } },
];
const FORM = [
  { id: "root", component: "Column", children: ["title", "name"] },
  { id: "title", component: "Text", text: "Your booking" },
  { id: "name", component: "TextField", label: "Name on the booking", value: { path: "/name" } },
];

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
beforeEach(async () => {
  page = await browser.newPage(PAGE_OPTIONS);
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ path: SURFACE_PAGE, type: "module" });
  await page.waitForFunction(() => typeof window.showSurface === "function");
});
afterEach(() => page?.close());

const show = (components: object[]) => page.evaluate((content) => window.showSurface(content), { a2ui_operations: operations(components) });

describe("an A2UI surface with Carbon's components, in Chromium", () => {
  it("keeps the person in Carbon's text input, with what they typed and the caret, when a snapshot redraws the form", async () => {
    await show(FORM);
    const field = page.getByLabel("Name on the booking");
    await field.click();
    await field.pressSequentially("Grace Hopper");
    await field.evaluate((input: HTMLInputElement) => input.setSelectionRange(2, 7));
    const before = await page.evaluateHandle(() => document.querySelector("cds-text-input"));
    await show([{ id: "root", component: "Column", children: ["title", "note", "name"] }, FORM[1]!, FORM[2]!, { id: "note", component: "Text", text: "We will confirm by email." }]);
    await page.getByText("We will confirm by email.").waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === "CDS-TEXT-INPUT");
    const focused = await page.evaluate((old) => {
      const host = document.querySelector("cds-text-input")!;
      const input = host.shadowRoot!.querySelector("input")!;
      return { redrawn: host !== old, inField: host.shadowRoot!.activeElement === input, value: input.value, caret: [input.selectionStart, input.selectionEnd] };
    }, before);
    expect(focused).toEqual({ redrawn: true, inField: true, value: "Grace Hopper", caret: [2, 7] });
  });
});
