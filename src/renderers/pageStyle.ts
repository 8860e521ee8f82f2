/** Adds `css` to the page's head as a style element of `id`, once: later calls find it there. */
export function addPageStyle(document: Document, id: string, css: string): void {
  if (document.getElementById(id)) return;
  const style = document.createElement("style");
  style.id = id;
  style.textContent = css;
  document.head.append(style);
}
