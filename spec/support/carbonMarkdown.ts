import { createRequire } from "node:module";

/** The parts of markdown-it's API the specs use. */
interface Token {
  type: string;
  markup: string;
  content: string;
  children: Token[] | null;
}
interface MarkdownIt {
  parse(source: string, env: object): Token[];
  render(source: string): string;
  enable(rule: string): MarkdownIt;
  inline: { ruler: { before(name: string, rule: string, fn: (state: InlineState, silent: boolean) => boolean): void } };
}
interface InlineState {
  src: string;
  pos: number;
  posMax: number;
  push(type: string, tag: string, nesting: number): Token;
  md: { inline: { tokenize(state: InlineState): void } };
}

// markdown-it is what @carbon/ai-chat-components 1.9.1 renders markdown with (a dependency of @carbon/ai-chat).
const MarkdownItClass = createRequire(__filename)("markdown-it") as new (preset: string, options: object) => MarkdownIt;

/** Carbon's `==highlight==` rule as it behaves: from `==` to the next `==`, scanning the raw text (code spans included). */
function highlight(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "highlight", (state, silent) => {
    if (state.src.slice(state.pos, state.pos + 2) !== "==" || silent) return false;
    for (let pos = state.pos + 2; pos < state.posMax; pos++) {
      if (state.src.slice(pos, pos + 2) !== "==") continue;
      if (!state.src.slice(state.pos + 2, pos).trim()) return false;
      state.push("highlight_open", "mark", 1);
      const [start, max] = [state.pos, state.posMax];
      state.pos = start + 2;
      state.posMax = pos;
      state.md.inline.tokenize(state);
      state.pos = start;
      state.posMax = max;
      state.push("highlight_close", "mark", -1);
      state.pos = pos + 2;
      return true;
    }
    return false;
  });
}

/** A markdown-it configured as Carbon AI Chat 1.9.1's markdown view: CommonMark with raw HTML, breaks, linkify, tables, strikethrough, highlight. */
export function carbonMarkdown(html = true): MarkdownIt {
  const md = new MarkdownItClass("commonmark", { html, breaks: true, linkify: true }).enable("table").enable("strikethrough").enable("linkify");
  highlight(md);
  return md;
}

const withHtml = carbonMarkdown();

/** What Carbon would render of `markdown` as live HTML (raw HTML blocks and inline tags) or as a remote image. */
export function liveHtml(markdown: string): string[] {
  const found: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "html_block" || token.type === "html_inline" || token.type === "image") found.push(`${token.type}: ${token.content}`);
      if (token.children) visit(token.children);
    }
  };
  visit(withHtml.parse(markdown, {}));
  return found;
}

/** Whether markdown-it reads `markdown` with an autolink or an image (which the escaping turns into text or a link on purpose). */
export function hasAutolinkOrImage(markdown: string, md: MarkdownIt): boolean {
  const visit = (tokens: Token[]): boolean => tokens.some((token) => token.type === "image" || (token.type === "link_open" && token.markup === "autolink") || (token.children !== null && visit(token.children)));
  return visit(md.parse(markdown, {}));
}
