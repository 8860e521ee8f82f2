import { TextBuffer } from "../../src/internal/textBuffer";

describe("TextBuffer", () => {
  it("returns the pieces joined in order, across many joins", () => {
    const buffer = new TextBuffer();
    const pieces = Array.from({ length: 1_000 }, (_, index) => `${index},`);
    for (const piece of pieces) buffer.append(piece);
    expect(buffer.toString()).toBe(pieces.join(""));
    buffer.append("end");
    expect(buffer.toString()).toBe(`${pieces.join("")}end`);
  });

  it("is empty until a non-empty piece arrives", () => {
    const buffer = new TextBuffer();
    expect(buffer.isEmpty).toBe(true);
    buffer.append("");
    expect([buffer.isEmpty, buffer.toString()]).toEqual([true, ""]);
    buffer.append("x");
    expect(buffer.isEmpty).toBe(false);
  });
});
