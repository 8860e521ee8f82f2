import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/**
 * The README and docs/ name files of this repository (in code spans and in
 * markdown links), headings of its pages (link anchors) and npm scripts;
 * every one must exist, so a rename cannot leave a doc pointing at nothing.
 */
const root = join(__dirname, "..");
const pages = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** Top-level folders of this repository a code span may name a path in (relative to the root). */
const ROOT_FOLDERS = ["src", "spec", "examples", "docs", "bench", "scripts", "marbles", ".ci"];
const ROOT_PATH = new RegExp(`^(?:${ROOT_FOLDERS.map((folder) => folder.replace(".", "\\.")).join("|")})/[\\w.*/-]*$`);

/** The page without its fenced code blocks: their imports and commands are examples, not references. */
const prose = (markdown: string) => markdown.replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, "");

/** Whether `path` (relative to the root; `*` matches within one segment) names something in the repository. */
function exists(path: string): boolean {
  if (!path.includes("*")) return existsSync(join(root, path));
  const matches = (folder: string, segments: string[]): boolean => {
    const [segment, ...rest] = segments;
    if (segment === undefined) return true;
    if (!segment.includes("*")) return existsSync(join(folder, segment)) && matches(join(folder, segment), rest);
    const pattern = new RegExp(`^${segment.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
    return (
      existsSync(folder) &&
      statSync(folder).isDirectory() &&
      readdirSync(folder).some((name) => pattern.test(name) && matches(join(folder, name), rest))
    );
  };
  return matches(root, path.split("/").filter(Boolean));
}

/** Every repository path `page` names, relative to the root: code spans that start with a root folder, and relative link targets. */
function namedPaths(page: string): string[] {
  const text = prose(readFileSync(join(root, page), "utf8"));
  const spans = [...text.matchAll(/(`+)([^`]+?)\1/g)].map((match) => match[2]!.trim()).filter((span) => ROOT_PATH.test(span));
  const links = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .map((target) => relative(root, normalize(join(root, dirname(page), decodeURIComponent(target.split("#")[0]!)))).replace(/\\/g, "/"));
  return [...new Set([...spans, ...links])];
}

/** The anchors GitHub gives the headings of `page` (text lowercased, punctuation dropped, spaces as hyphens; repeats numbered). */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const headings = [...prose(readFileSync(join(root, page), "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((match) => match[1]!);
  return new Set(
    headings.map((heading) => {
      const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
      const slug = text.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      return count === 0 ? slug : `${slug}-${count}`;
    }),
  );
}

/** Every link of `page` to a heading of a markdown page in the repository, as `file#anchor` (file relative to the root). */
function namedAnchors(page: string): { file: string; anchor: string }[] {
  return [...prose(readFileSync(join(root, page), "utf8")).matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path, anchor] = target.split("#") as [string, string];
      const file = path === "" ? page : relative(root, normalize(join(root, dirname(page), path))).replace(/\\/g, "/");
      return { file, anchor: decodeURIComponent(anchor) };
    })
    .filter(({ file }) => file.endsWith(".md") && existsSync(join(root, file)));
}

/** Every `npm run X` the page names, X as written. */
const namedScripts = (page: string) => [...new Set([...readFileSync(join(root, page), "utf8").matchAll(/npm run ([\w:.-]+)/g)].map((match) => match[1]!))];

describe("the README and docs/", () => {
  it.each(pages)("%s names only paths that exist", (page) => {
    const missing = namedPaths(page).filter((path) => !exists(path));
    expect(missing.map((path) => `${page} names ${path}, which does not exist`)).toEqual([]);
  });

  it.each(pages)("%s links only to headings that exist", (page) => {
    const missing = namedAnchors(page).filter(({ file, anchor }) => !anchors(file).has(anchor));
    expect(missing.map(({ file, anchor }) => `${page} links to ${file}#${anchor}, a heading that does not exist`)).toEqual([]);
  });

  it.each(pages)("%s names only npm scripts package.json has", (page) => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const missing = namedScripts(page).filter((script) => !scripts.includes(script));
    expect(missing.map((script) => `${page} names npm run ${script}, which package.json does not have`)).toEqual([]);
  });

  it("finds the paths a page names, in code spans and in links", () => {
    // The checks above would pass on pages from which nothing is extracted.
    expect(namedPaths("README.md").length).toBeGreaterThan(5);
    expect(namedPaths("README.md")).toContain("docs/security.md");
    expect(namedScripts("README.md")).toContain("test:package");
    expect(namedAnchors("README.md")).toContainEqual({ file: "docs/options.md", anchor: "errors" });
    expect(anchors("docs/options.md")).toContain("rxjs-and-ag-uiclient");
  });
});
