import fc from "fast-check";
import { JSDOM } from "jsdom";
import { CARBON_RESPONSE_TYPES, carbonItemProblems, type UrlContext } from "../src/itemAllowlist";

const input = { text: "yes" };
/** A valid item of each type, and a broken one with what is wrong. */
const cases: Record<string, { valid: object; broken: object; problem: string }> = {
  text: { valid: { text: "Hi" }, broken: { text: 5 }, problem: "item.text: must be a string" },
  option: { valid: { options: [{ label: "Yes", value: { input } }] }, broken: { options: [{ label: "Yes" }] }, problem: "item.options.0.value: must be an object" },
  connect_to_agent: { valid: {}, broken: { streaming_metadata: { id: 3 } }, problem: "item.streaming_metadata.id: must be a string" },
  image: { valid: { source: "https://example.test/a.png" }, broken: {}, problem: "item.source: must be a string" },
  video: { valid: { source: "https://example.test/a.mp4" }, broken: {}, problem: "item.source: must be a string" },
  audio: { valid: { source: "https://example.test/a.mp3" }, broken: {}, problem: "item.source: must be a string" },
  pause: { valid: { time: 500 }, broken: { streaming_metadata: "x" }, problem: "item.streaming_metadata.id: must be a string" },
  user_defined: { valid: { user_defined: { kind: "card" } }, broken: { streaming_metadata: {} }, problem: "item.streaming_metadata.id: must be a string" },
  iframe: { valid: { source: "https://example.test" }, broken: { source: null }, problem: "item.source: must be a string" },
  date: { valid: {}, broken: { streaming_metadata: [] }, problem: "item.streaming_metadata.id: must be a string" },
  inline_error: { valid: { text: "Oops" }, broken: { streaming_metadata: 1 }, problem: "item.streaming_metadata.id: must be a string" },
  card: { valid: { body: [{ response_type: "text", text: "Body" }], footer: [{ response_type: "button", button_type: "url", url: "https://example.test" }] }, broken: { body: [{ response_type: "nope" }] }, problem: "item.body.0.response_type: must be one of" },
  carousel: { valid: { items: [{ response_type: "card", body: [] }] }, broken: { items: "many" }, problem: "item.items: must be an array of items" },
  button: { valid: { button_type: "post_back", label: "Go", value: { input } }, broken: { button_type: "teleport" }, problem: "item.button_type: must be one of post_back, custom_event, show_panel, url" },
  grid: { valid: { columns: [{ width: "1" }], rows: [{ cells: [{ items: [{ response_type: "text", text: "A1" }] }] }] }, broken: { columns: [{ width: "1" }], rows: [{ cells: [{}] }] }, problem: "item.rows.0.cells.0.items: must be an array of items" },
  conversational_search: { valid: { text: "Found it", citations: [] }, broken: {}, problem: "item.text: must be a string" },
  preview_card: { valid: { workspace_id: "w1", title: "Doc" }, broken: { title: "Doc" }, problem: "item.workspace_id: must be a string" },
  system: { valid: { text: "⚙ search" }, broken: { text: ["⚙"] }, problem: "item.text: must be a string" },
};

describe("carbonItemProblems", () => {
  it("knows exactly Carbon 1.9.1's eighteen response types", () => {
    expect([...CARBON_RESPONSE_TYPES].sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.entries(cases))("accepts a valid %s item and names what is wrong with a broken one", (responseType, { valid, broken, problem }) => {
    expect(carbonItemProblems({ response_type: responseType, ...valid })).toEqual([]);
    const problems = carbonItemProblems({ response_type: responseType, ...broken });
    expect(problems.some((found) => found.startsWith(problem))).toBe(true);
  });

  it("rejects what is not an item, or an unknown response type", () => {
    expect(carbonItemProblems("text")).toEqual(["item: must be an object"]);
    expect(carbonItemProblems({ response_type: "thought", text: "x" })[0]).toMatch(/^item\.response_type: must be one of text, option/);
    expect(carbonItemProblems({ response_type: "toString" })[0]).toMatch(/^item\.response_type/);
  });
});

describe("the URL policy", () => {
  const bad = "javascript:alert(1)";
  /** Each URL-bearing field of each item type: an item with that field set to `href`, and the field's path. */
  const urlFields: Record<string, { item: (href: string) => object; path: string }> = {
    "image source": { item: (href) => ({ response_type: "image", source: href }), path: "source" },
    "video source": { item: (href) => ({ response_type: "video", source: href }), path: "source" },
    "audio source": { item: (href) => ({ response_type: "audio", source: href }), path: "source" },
    "video subtitle track": {
      item: (href) => ({ response_type: "video", source: "https://example.test/a.mp4", file_accessibility: { subtitle_tracks: [{ src: href, language: "en", label: "English" }] } }),
      path: "file_accessibility.subtitle_tracks.0.src",
    },
    "iframe source": { item: (href) => ({ response_type: "iframe", source: href }), path: "source" },
    "iframe preview image": { item: (href) => ({ response_type: "iframe", source: "https://example.test", image_url: href }), path: "image_url" },
    "button url": { item: (href) => ({ response_type: "button", button_type: "url", label: "Go", url: href }), path: "url" },
    "button image": { item: (href) => ({ response_type: "button", button_type: "url", url: "https://example.test", image_url: href }), path: "image_url" },
    "citation url": { item: (href) => ({ response_type: "conversational_search", text: "Found", citations: [{ title: "Doc", url: href }] }), path: "citations.0.url" },
  };
  /** Each way to nest an item: the container around `inner`, and the path of `inner` in it. */
  const nestings: Record<string, { wrap: (inner: object) => object; path: string }> = {
    "at the top": { wrap: (inner) => inner, path: "item" },
    "in a card body": { wrap: (inner) => ({ response_type: "card", body: [inner] }), path: "item.body.0" },
    "in a card footer": { wrap: (inner) => ({ response_type: "card", footer: [inner] }), path: "item.footer.0" },
    "in a carousel": { wrap: (inner) => ({ response_type: "carousel", items: [inner] }), path: "item.items.0" },
    "in a grid cell": { wrap: (inner) => ({ response_type: "grid", columns: [{ width: "1" }], rows: [{ cells: [{ items: [inner] }] }] }), path: "item.rows.0.cells.0.items.0" },
    "in a button's panel body": { wrap: (inner) => ({ response_type: "button", button_type: "show_panel", panel: { body: [inner] } }), path: "item.panel.body.0" },
    "in a button's panel footer": { wrap: (inner) => ({ response_type: "button", button_type: "show_panel", panel: { footer: [inner] } }), path: "item.panel.footer.0" },
    "in a card, in a carousel, in a grid cell": {
      wrap: (inner) => ({ response_type: "grid", columns: [{ width: "1" }], rows: [{ cells: [{ items: [{ response_type: "carousel", items: [{ response_type: "card", body: [inner] }] }] }] }] }),
      path: "item.rows.0.cells.0.items.0.items.0.body.0",
    },
  };
  const cases = Object.entries(urlFields).flatMap(([field, { item, path }]) => Object.entries(nestings).map(([nesting, { wrap, path: at }]) => [field, nesting, item, `${at}.${path}`, wrap] as const));

  it.each(cases)("checks the %s %s", (_field, _nesting, item, path, wrap) => {
    expect(carbonItemProblems(wrap(item("https://example.test/x")))).toEqual([]);
    expect(carbonItemProblems(wrap(item(bad)))).toEqual([`${path}: javascript: URLs are not allowed (only https:)`]);
    expect(carbonItemProblems(wrap(item("/relative.png")))).toEqual([`${path}: must be an absolute URL`]);
    expect(carbonItemProblems(wrap(item(42 as unknown as string)))[0]).toBe(`${path}: must be a string`);
  });

  it.each([
    ["data:text/html,<script>alert(1)</script>", "data:"],
    ["data:image/png;base64,iVBORw0KGgo=", "data:"],
    ["vbscript:msgbox(1)", "vbscript:"],
    ["blob:https://example.test/0b1c", "blob:"],
    ["file:///etc/passwd", "file:"],
    ["http://example.test/a.png", "http:"],
    ["JAVASCRIPT:alert(1)", "javascript:"],
    ["  javascript:alert(1)", "javascript:"],
    ["java\tscript:alert(1)", "javascript:"],
    ["java\nscript:alert(1)", "javascript:"],
    ["\u0001javascript:alert(1)", "javascript:"],
  ])("refuses %j (read as %s)", (href, scheme) => {
    expect(carbonItemProblems({ response_type: "image", source: href })).toEqual([`item.source: ${scheme} URLs are not allowed (only https:)`]);
  });

  it.each(["&#106;avascript:alert(1)", "javascript&colon;alert(1)", "%6Aavascript:alert(1)", "\u00a0javascript:alert(1)", "ｊａｖａｓｃｒｉｐｔ:alert(1)", "//evil.test/x.png", "", "https//example.test"])(
    "refuses %j, which is not an absolute URL (an attribute is never entity-decoded here: React and Lit set it as it is)",
    (href) => {
      expect(carbonItemProblems({ response_type: "iframe", source: href })).toEqual(["item.source: must be an absolute URL"]);
    },
  );

  it("takes http: when the app allows it", () => {
    expect(carbonItemProblems({ response_type: "image", source: "http://intranet.test/a.png" }, "item", { allowHttp: true })).toEqual([]);
    expect(carbonItemProblems({ response_type: "image", source: "ftp://intranet.test/a.png" }, "item", { allowHttp: true })).toEqual(["item.source: ftp: URLs are not allowed (only https: and http:)"]);
  });

  it("lets allowUrl narrow the policy (an origin allowlist for iframes) and widen it, seeing the path, the innermost item and the default's verdict", () => {
    const seen: unknown[] = [];
    const allowUrl = (href: string, context: UrlContext) => {
      seen.push([href, context.path, context.item.response_type, context.allowedByDefault]);
      if (context.item.response_type === "iframe") return new URL(href).origin === "https://maps.example.test";
      return context.allowedByDefault || href.startsWith("data:image/png;");
    };
    const card = {
      response_type: "card",
      body: [
        { response_type: "iframe", source: "https://evil.example.test/" },
        { response_type: "iframe", source: "https://maps.example.test/embed" },
        { response_type: "image", source: "data:image/png;base64,iVBORw0KGgo=" },
      ],
    };
    expect(carbonItemProblems(card, "item", { allowUrl })).toEqual(["item.body.0.source: refused by allowUrl"]);
    expect(seen).toEqual([
      ["https://evil.example.test/", "item.body.0.source", "iframe", true],
      ["https://maps.example.test/embed", "item.body.1.source", "iframe", true],
      ["data:image/png;base64,iVBORw0KGgo=", "item.body.2.source", "image", false],
    ]);
    expect(carbonItemProblems({ response_type: "image", source: "javascript:alert(1)" }, "item", { allowUrl: () => false })).toEqual([
      "item.source: javascript: URLs are not allowed (only https:)",
    ]);
  });

  describe("against the browser's own URL parsing (jsdom's anchor, WHATWG URL)", () => {
    const { document } = new JSDOM("", { url: "https://chat.example.test/" }).window;
    const browserProtocol = (href: string) => {
      const anchor = document.createElement("a");
      anchor.setAttribute("href", href);
      return anchor.protocol;
    };
    const schemes = ["javascript", "data", "vbscript", "blob", "file", "http", "https", "about", "filesystem", "jar", "ms-its"];
    /** A scheme as an attacker would spell it: mixed case, with tabs, newlines, controls or spaces in and around it, maybe entity- or percent-encoded. */
    const spelled = fc
      .tuple(
        fc.constantFrom(...schemes),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.array(fc.constantFrom("", "", "", "\t", "\n", "\r", " ", "\u0000", "\u0001", "\u001f", "\u00a0", "\u200b", "&#x09;"), { minLength: 14, maxLength: 14 }),
        fc.constantFrom(":", ":", "&colon;", "%3A", "&#58;", "\t:"),
        fc.constantFrom("alert(1)", "//example.test/a.png", "text/html,<script>alert(1)</script>", "https://example.test/x"),
      )
      .map(([scheme, upper, noise, colon, rest]) => {
        const letters = [...scheme].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter) + (noise[index + 1] ?? ""));
        return `${noise[0]}${letters.join("")}${colon}${rest}${noise[13]}`;
      });

    it("accepts a URL only when the browser would read it as https:, whatever its spelling", () => {
      fc.assert(
        fc.property(fc.oneof(spelled, fc.string(), fc.webUrl()), (href) => {
          const accepted = carbonItemProblems({ response_type: "image", source: href }).length === 0;
          if (accepted) expect(browserProtocol(href)).toBe("https:");
          if (browserProtocol(href) !== "https:") expect(accepted).toBe(false);
        }),
        { numRuns: 800 },
      );
    });
  });
});
