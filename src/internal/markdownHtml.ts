const [TAB, SPACE, BANG, OPEN_PAREN, COLON, LESS_THAN, EQUALS, OPEN_BRACKET, BACKSLASH, CLOSE_BRACKET, BACKTICK, OPEN_BRACE, PIPE] = [..."\t !(:<=[\\]`{|"].map((char) =>
  char.charCodeAt(0),
);

/** The characters the scan acts on or remembers, but for spaces and tabs. */
const MAY_MATTER = /[`<!{|(:=\\\]]/;

/** Characters of container markers and indentation at the start of a line: spaces, tabs, `>`, list markers. */
const isLinePrefix = (code: number) => code === SPACE || code === TAB || (code >= 48 && code <= 57) || ">-+*.)".includes(String.fromCharCode(code));

/**
 * Makes the HTML in markdown display as text in Carbon AI Chat 1.9.1, whose
 * renderer is markdown-it (`html: true`, CommonMark, tables, strikethrough,
 * linkify, `==highlight==`): it renders every raw HTML token as live HTML.
 *
 * markdown-it only sees HTML (a tag, comment, declaration, an autolink, an
 * HTML block) where there is a literal `<`, and a markdown image only at a
 * literal `![`. So, outside code, every `<` becomes `&lt;` (which markdown-it
 * decodes to a `<` shown as text) and every `![` becomes `\![` (a `!`, then a
 * link), and `{{` — Carbon's syntax for attributes such as a link's
 * `target` — gets an invisible word joiner between its braces. `&` is left
 * alone: markdown-it decodes entities into text, never into HTML, so "AT&T"
 * and `&amp;` read as before.
 *
 * Code renders literally, so a `&lt;` there would show as such: `<` in code is
 * left as it was — in fenced code blocks that start at the left margin, and in
 * code spans on one line — but only where markdown-it's reading of the text
 * is certain to be ours. Where it may not be (code spans after a link, a
 * linkified URL, a table cell, `==`, a backslash or an unclosed backtick in
 * the same paragraph; lines indented like code; anything after a fence that
 * is indented or inside a list or quote), a `<` gets an invisible word joiner
 * after it instead, and a `![` one in between: that displays exactly as it
 * was whether markdown-it reads it as code or as text, and is never HTML.
 *
 * It works on a stream of pieces: `push` returns the output for each piece
 * as soon as it is decided (a backtick waits for its line, a `!` for the next
 * character), `end` the rest. The output does not depend on how the text was
 * split, and every prefix of it is safe to render.
 */
export class MarkdownHtmlEscaper {
  /** Input of the current line not yet decided (starts at a clean boundary). */
  private pending = "";
  /** The decided input of the current line, for the checks at its end. */
  private lineParts: string[] = [];
  /** How many input characters precede `pending`. */
  private consumed = 0;
  private readonly fences = new Fences();
  /** What the line and paragraph so far tell about how markdown-it reads what follows. */
  private readonly context = new ReadingContext();
  private afterCarriageReturn = false;
  /** Where the closer search for the backtick run at the start of `pending` resumes. */
  private closerSearchFrom = 0;

  /**
   * @param trustStructure `false` for text that something will edit before
   *   rendering (Carbon inserts `==` into `conversational_search` text for its
   *   citations): nothing is then taken as code.
   * @param shifts when given, receives `[inputIndex, addedLength]` for each
   *   change, so positions in the input can be mapped to the output.
   */
  constructor(
    private readonly trustStructure = true,
    private readonly shifts?: [number, number][],
  ) {}

  /** The output for `text`, appended to what came before, as far as it is decided. */
  push(text: string): string {
    let out = "";
    let rest = text;
    if (this.afterCarriageReturn && rest.startsWith("\n")) {
      // The second half of a CRLF: the line already ended.
      out += "\n";
      rest = rest.slice(1);
      this.consumed += 1;
    }
    this.afterCarriageReturn = false;
    if (!rest.includes("\n") && !rest.includes("\r")) {
      this.pending += rest;
      return out + this.scan(false);
    }
    const lineEnd = /\r\n|\r|\n/g;
    let from = 0;
    for (let match = lineEnd.exec(rest); match; match = lineEnd.exec(rest)) {
      this.pending += rest.slice(from, match.index);
      out += this.scan(true) + this.endLine(match[0]);
      from = match.index + match[0].length;
      if (match[0] === "\r" && from === rest.length) this.afterCarriageReturn = true;
    }
    this.pending += rest.slice(from);
    return out + this.scan(false);
  }

  /** The rest of the output, once the text is complete. */
  end(): string {
    return this.scan(true);
  }

  /** What is still undecided, shown safely for a snapshot (a reasoning step's content so far); it does not change the state. */
  peekPending(): string {
    return neutralizeAnywhere(this.pending);
  }

  /**
   * Whether the character here may not be read as prose: then it gets a word
   * joiner, not an entity or a backslash. After a backslash (which a
   * linkified URL may swallow, or which already escapes it) or in a word with
   * a colon (a URL), too.
   */
  private unsureHere(): boolean {
    return !this.trustStructure || this.fences.uncertain || this.context.paragraphTainted || this.context.indentedLikeCode || this.context.backslashes > 0 || this.context.wordHasColon;
  }

  private shift(index: number, added: number): void {
    this.shifts?.push([this.consumed + index, added]);
  }

  /** Decides as much of `pending` as it can; `complete` when its line has ended. */
  private scan(complete: boolean): string {
    const text = this.pending;
    if (text === "") return "";
    if (this.fences.current) {
      // Inside a fenced code block we can place: everything is code.
      this.take(text, text.length);
      return text;
    }
    if (this.context.prefixDone && !MAY_MATTER.test(text)) {
      // Most deltas: nothing to change, and only this to remember.
      if (text.includes(" ") || text.includes("\t")) this.context.wordHasColon = false;
      this.context.backslashes = 0;
      this.context.previous = text.charCodeAt(text.length - 1);
      this.take(text, text.length);
      return text;
    }
    let out = "";
    /** Input before this is in `out`; plain characters are copied in runs. */
    let copied = 0;
    let at = 0;
    /** Where to resume the closer search when an opener is held (relative to what stays pending). */
    let heldOpenerSearch = 0;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (!this.context.prefixDone) {
        if (isLinePrefix(code)) {
          // Container markers and indentation: an indent of four columns may make the line a code block.
          this.context.prefixSpaces = code === SPACE ? this.context.prefixSpaces + 1 : 0;
          if (code === TAB || this.context.prefixSpaces >= 4) this.context.indentedLikeCode = true;
          this.context.see(code);
          at += 1;
          continue;
        }
        this.context.prefixDone = true;
      }
      if (code === BACKTICK) {
        let runEnd = at + 1;
        while (runEnd < text.length && text.charCodeAt(runEnd) === BACKTICK) runEnd += 1;
        if (runEnd === text.length && !complete) break; // the run may grow
        const length = runEnd - at;
        const found = findCloser(text, at === 0 && this.closerSearchFrom > runEnd ? this.closerSearchFrom : runEnd, length, complete);
        if (typeof found !== "number") {
          this.closerSearchFrom = found.waitFrom;
          heldOpenerSearch = this.closerSearchFrom - at;
          break; // wait for the line
        }
        const closer = found;
        const escapedOpener = this.context.backslashes > 0;
        this.context.backslashes = 0;
        this.context.previous = BACKTICK;
        if (closer < 0) {
          // No closer on the line: the backticks are text, and a later line may close them in markdown-it's reading.
          this.context.paragraphTainted = true;
          at = runEnd;
          continue;
        }
        const content = text.slice(runEnd, closer);
        const trusted = this.trustStructure && !this.context.paragraphTainted && !escapedOpener && !this.context.wordHasColon && !this.context.linePipe && !content.includes("|");
        if (!trusted) {
          this.context.paragraphTainted = true;
          out += text.slice(copied, runEnd) + neutralizeCode(content, this.shifts && ((index) => this.shift(runEnd + index, 1)));
          copied = closer;
        }
        for (let index = runEnd; index < closer; index++) this.context.see(text.charCodeAt(index));
        // A backslash at the end of a code span is code: it escapes nothing after the span.
        this.context.backslashes = 0;
        this.context.previous = BACKTICK;
        at = closer + length;
        continue;
      }
      if ((code === BANG || code === OPEN_BRACE) && at + 1 === text.length && !complete) break; // an image? attributes?
      if (code === LESS_THAN || (code === BANG && text.charCodeAt(at + 1) === OPEN_BRACKET) || (code === OPEN_BRACE && text.charCodeAt(at + 1) === OPEN_BRACE)) {
        out += text.slice(copied, at) + this.replacement(at, code);
        copied = at + 1;
      }
      this.context.see(code);
      at += 1;
    }
    out += text.slice(copied, at);
    this.take(text, at);
    this.closerSearchFrom = heldOpenerSearch;
    return out;
  }

  /**
   * What `<`, the `!` of `![` or the first `{` of `{{` at `at` becomes: inert with a word joiner where unsure (and
   * always for `{{`, Carbon's attribute syntax, which a backslash does not stop), else an entity or a backslash escape.
   */
  private replacement(at: number, code: number): string {
    if (code === OPEN_BRACE) {
      this.shift(at, 1);
      return "{\u2060";
    }
    if (this.unsureHere()) {
      this.shift(at, 1);
      return code === LESS_THAN ? "<\u2060" : "!\u2060";
    }
    if (code === LESS_THAN) {
      this.shift(at, 3);
      return "&lt;";
    }
    this.shift(at - 1, 1);
    return "\\!";
  }

  /** Moves the first `length` characters of `text` (the pending input) into the decided line. */
  private take(text: string, length: number): void {
    this.lineParts.push(length === text.length ? text : text.slice(0, length));
    this.pending = length === text.length ? "" : text.slice(length);
    this.consumed += length;
  }

  private endLine(terminator: string): string {
    const line = this.lineParts.join("");
    const closedFence = this.fences.endLine(line, this.trustStructure);
    this.context.endLine(closedFence || /^[ \t]*$/.test(line));
    this.lineParts = [];
    this.consumed += terminator.length;
    this.closerSearchFrom = 0;
    return terminator;
  }
}

/**
 * What the current line and paragraph tell about how markdown-it will read
 * a backtick, a `<` or a `!` that follows: the scan's memory between
 * characters, and between deltas.
 */
class ReadingContext {
  /** Code spans in this paragraph may not be read as we read them. */
  paragraphTainted = false;
  /** The line's container markers and indentation are behind us. */
  prefixDone = false;
  prefixSpaces = 0;
  indentedLikeCode = false;
  backslashes = 0;
  wordHasColon = false;
  linePipe = false;
  previous = 0;

  /** Follows what bears on how markdown-it reads a backtick later in the paragraph. */
  see(code: number): void {
    switch (code) {
      case PIPE:
        this.linePipe = true;
        break;
      case OPEN_PAREN:
        if (this.previous === CLOSE_BRACKET) this.paragraphTainted = true; // a link destination
        break;
      case COLON:
        if (this.previous === CLOSE_BRACKET) this.paragraphTainted = true; // a link definition
        this.wordHasColon = true; // a linkified URL could swallow a backtick
        break;
      case EQUALS:
        if (this.previous === EQUALS) this.paragraphTainted = true; // Carbon's ==highlight== ignores code spans
        break;
      case SPACE:
      case TAB:
        this.wordHasColon = false;
        break;
    }
    this.backslashes = code === BACKSLASH ? this.backslashes + 1 : 0;
    this.previous = code;
  }

  /** The line ended; `paragraphEnded` when it was blank (or closed a fence). */
  endLine(paragraphEnded: boolean): void {
    if (paragraphEnded) this.paragraphTainted = false;
    this.prefixDone = false;
    this.prefixSpaces = 0;
    this.indentedLikeCode = false;
    this.backslashes = 0;
    this.wordHasColon = false;
    this.linePipe = false;
    this.previous = 0;
  }
}

/** The fenced code blocks of the text: the one we are in, when we can place it for certain, and whether one was seen that we cannot. */
class Fences {
  /** The fenced code block we are in, when it is one we can place for certain. */
  current: { marker: string; length: number } | undefined;
  /** A fence was seen that we cannot place: from here on, nothing is certain to be text or code. */
  uncertain = false;

  /** Follows a line that ended; true when it closed the block we were in. */
  endLine(line: string, trustStructure: boolean): boolean {
    if (this.current) {
      const closing = closingFence(line, this.current);
      if (closing === "no") return false;
      this.current = undefined;
      if (closing === "maybe") this.uncertain = true;
      return true;
    }
    if (trustStructure && !this.uncertain) {
      const opener = /^(`{3,}|~{3,})(.*)$/.exec(line);
      if (opener && !(opener[1]!.startsWith("`") && opener[2]!.includes("`"))) this.current = { marker: opener[1]![0]!, length: opener[1]!.length };
      else if (/^[ \t>\-+*0-9.)]*(?:```|~~~)/.test(line)) this.uncertain = true;
    }
    return false;
  }
}

/**
 * The start of the first run of exactly `length` backticks in `text` from
 * `search`; -1 when the line has none; `waitFrom` when it may yet come (the
 * line goes on), with where to resume the search.
 */
function findCloser(text: string, search: number, length: number, complete: boolean): number | { waitFrom: number } {
  for (let start = text.indexOf("`", search); start >= 0; start = text.indexOf("`", search)) {
    let end = start + 1;
    while (end < text.length && text[end] === "`") end += 1;
    if (end === text.length && !complete) return { waitFrom: start };
    if (end - start === length) return start;
    search = end;
  }
  return complete ? -1 : { waitFrom: text.length };
}

/** Code that markdown-it may read as text: invisible joiners keep it from being HTML or an image either way; `mark` is told where each goes. */
function neutralizeCode(content: string, mark: ((index: number) => void) | undefined): string {
  if (mark) {
    for (let index = content.indexOf("<"); index >= 0; index = content.indexOf("<", index + 1)) mark(index);
    for (let index = content.indexOf("!["); index >= 0; index = content.indexOf("![", index + 1)) mark(index);
    for (let index = content.indexOf("{{"); index >= 0; index = content.indexOf("{{", index + 1)) mark(index);
  }
  return neutralizeAnywhere(content);
}

/** Whether `line` closes `fence`: "yes" as markdown-it reads it; "maybe" when we close it to be safe but markdown-it may not. */
function closingFence(line: string, fence: { marker: string; length: number }): "yes" | "maybe" | "no" {
  const match = /^([ \t]*)([`~]+)(\s*)$/.exec(line);
  if (!match || !match[2]!.startsWith(fence.marker) || match[2]!.length < fence.length || match[2]!.includes(fence.marker === "`" ? "~" : "`")) return "no";
  let columns = 0;
  for (const char of match[1]!) columns = char === "\t" ? columns + 4 - (columns % 4) : columns + 1;
  return columns < 4 && /^[ \t]*$/.test(match[3]!) ? "yes" : "maybe";
}

/** Text that may be code or prose: `<`, `![` and `{{` made inert with an invisible word joiner, which displays the same in both. */
export function neutralizeAnywhere(text: string): string {
  return text.replace(/</g, "<\u2060").replace(/!\[/g, "!\u2060[").replace(/\{(?=\{)/g, "{\u2060");
}

/** `text` with its HTML made to display as text (see `MarkdownHtmlEscaper`). */
export function escapeMarkdownHtml(text: string, trustStructure = true): string {
  const escaper = new MarkdownHtmlEscaper(trustStructure);
  return escaper.push(text) + escaper.end();
}
