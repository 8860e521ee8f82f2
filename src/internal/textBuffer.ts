/** How many pieces wait before they are joined into one flat string. */
const PIECES_PER_JOIN = 256;

/**
 * Accumulates streamed text with memory proportional to the text, not to the
 * number of pieces. `a += piece` builds a rope with one node per piece (about
 * 30 bytes each, so 100,000 one-word deltas would hold ~3 MiB of nodes);
 * here pieces are joined into flat strings 256 at a time, so appending stays
 * linear in the bytes and the nodes stay few.
 */
export class TextBuffer {
  private joined = "";
  private readonly pieces: string[] = [];
  private size = 0;

  /** A buffer that holds `text`. */
  static of(text: string): TextBuffer {
    const buffer = new TextBuffer();
    buffer.append(text);
    return buffer;
  }

  append(piece: string): void {
    this.size += piece.length;
    this.pieces.push(piece);
    if (this.pieces.length === PIECES_PER_JOIN) this.join();
  }

  get isEmpty(): boolean {
    return this.size === 0;
  }

  /** The text's length, in UTF-16 code units. */
  get length(): number {
    return this.size;
  }

  toString(): string {
    this.join();
    return this.joined;
  }

  private join(): void {
    if (this.pieces.length === 0) return;
    this.joined += this.pieces.join("");
    this.pieces.length = 0;
  }
}
