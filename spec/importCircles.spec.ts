import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { preProcessFile } from "typescript";

const SRC = resolve(__dirname, "..", "src");

/** Every .ts file under `folder`. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each file's relative imports (`import type` included: a circle of types is a circle of meaning), resolved to files. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const imports = preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((imported) => imported.fileName);
      const targets = imports
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name))
        .flatMap((base) => [`${base}.ts`, join(base, "index.ts")].filter((candidate) => known.has(candidate)).slice(0, 1));
      return [file, targets];
    }),
  );
}

/** The circles of the graph, each as the files on it (depth-first search; one circle per back edge). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "open") found.push(path.slice(path.indexOf(target)));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("src/ imports", () => {
  it("form no circle", () => {
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.size).toBeGreaterThan(50);
    expect(circles(graph).map((circle) => circle.map((file) => relative(SRC, file)).join(" → "))).toEqual([]);
  });

  it("the check finds a circle, type imports included", () => {
    const a = join(SRC, "a.ts");
    const b = join(SRC, "b.ts");
    expect(circles(new Map([[a, [b]], [b, [a]]]))).toEqual([[a, b]]);
    expect(preProcessFile('import type { X } from "./client";', true, true).importedFiles.map((imported) => imported.fileName)).toEqual(["./client"]);
  });
});
