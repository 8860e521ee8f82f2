import { create } from "../renderers/controls";
import { checkedUrl } from "./checkedUrl";
import { read, readText, type Painter } from "./paintContext";

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5"]);

/**
 * A Text: a heading for `h1`–`h5`, else a paragraph (`caption` smaller). Its
 * text is set as text, never parsed: markdown and HTML show as written.
 */
export const paintText: Painter = (_node, props, context) => {
  const variant = String(read(props, "variant") ?? "body");
  const element = create(context.document, HEADINGS.has(variant) ? variant : "p", `cagr-a2ui-text cagr-a2ui-text-${HEADINGS.has(variant) || variant === "caption" ? variant : "body"}`);
  return {
    element,
    update(props) {
      element.textContent = readText(props, "text");
    },
  };
};

/**
 * An Image: an `img` with no referrer, its `src` only a URL the policy lets
 * through; a refused one draws the image's description as text instead.
 */
export const paintImage: Painter = (node, props, context) => {
  const element = create(context.document, "span", "cagr-a2ui-image");
  const variant = read(props, "variant");
  if (typeof variant === "string") element.dataset.variant = variant;
  return {
    element,
    update(props) {
      const description = readText(props, "description");
      const url = checkedUrl(readText(props, "url"), node, "url", context);
      if (url === undefined) {
        element.replaceChildren(create(context.document, "span", "cagr-a2ui-image-alt", description || "(image not shown)"));
        return;
      }
      const image = create(context.document, "img", "");
      image.setAttribute("referrerpolicy", "no-referrer");
      image.setAttribute("alt", description);
      image.setAttribute("src", url);
      const fit = read(props, "fit");
      if (typeof fit === "string") image.style.objectFit = fit === "scaleDown" ? "scale-down" : fit;
      element.replaceChildren(image);
    },
  };
};

/** An Icon: its name as a small label (`calendarToday` → "calendar today"); a custom SVG path draws nothing. */
export const paintIcon: Painter = (_node, props, context) => {
  const element = create(context.document, "span", "cagr-a2ui-icon");
  const update = (now: typeof props) => {
    const name = read(now, "name");
    element.textContent = typeof name === "string" ? name.replace(/([A-Z])/g, " $1").toLowerCase() : "";
  };
  update(props);
  return { element, update };
};

/** A Video or an AudioPlayer: the player with controls, never autoplaying, its source only a URL the policy lets through; else a note. */
const paintPlayer =
  (tag: "video" | "audio"): Painter =>
  (node, _props, context) => {
    const element = create(context.document, "div", `cagr-a2ui-${tag}`);
    return {
      element,
      update(props) {
        const url = checkedUrl(readText(props, "url"), node, "url", context);
        const description = readText(props, "description");
        const parts: HTMLElement[] = description ? [create(context.document, "p", "cagr-a2ui-text cagr-a2ui-text-caption", description)] : [];
        if (url === undefined) {
          parts.push(create(context.document, "p", "cagr-a2ui-note", `This ${tag} is not shown: its address is not allowed.`));
        } else {
          const player = create(context.document, tag, "");
          player.setAttribute("controls", "");
          player.setAttribute("preload", "none");
          player.setAttribute("src", url);
          parts.push(player);
        }
        element.replaceChildren(...parts);
      },
    };
  };

export const paintVideo = paintPlayer("video");
export const paintAudio = paintPlayer("audio");
