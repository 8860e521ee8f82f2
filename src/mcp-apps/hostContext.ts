import type { McpUiHostContext, McpUiStyles } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The MCP Apps style variables a host may give, each from the Carbon token it is read from (the white theme's value where the page sets none). */
const CARBON_TOKENS: Partial<Record<keyof McpUiStyles, [token: string, fallback: string]>> = {
  "--color-background-primary": ["--cds-layer-01", "#f4f4f4"],
  "--color-background-secondary": ["--cds-layer-02", "#ffffff"],
  "--color-background-inverse": ["--cds-background-inverse", "#393939"],
  "--color-background-danger": ["--cds-support-error", "#da1e28"],
  "--color-background-success": ["--cds-support-success", "#24a148"],
  "--color-text-primary": ["--cds-text-primary", "#161616"],
  "--color-text-secondary": ["--cds-text-secondary", "#525252"],
  "--color-text-inverse": ["--cds-text-inverse", "#ffffff"],
  "--color-text-danger": ["--cds-text-error", "#da1e28"],
  "--color-text-disabled": ["--cds-text-disabled", "rgba(22, 22, 22, 0.25)"],
  "--color-border-primary": ["--cds-border-subtle-01", "#c6c6c6"],
  "--color-border-secondary": ["--cds-border-strong-01", "#8d8d8d"],
  "--color-ring-primary": ["--cds-focus", "#0f62fe"],
};
const FONTS: Partial<McpUiStyles> = {
  "--font-sans": "'IBM Plex Sans', system-ui, -apple-system, sans-serif",
  "--font-mono": "'IBM Plex Mono', ui-monospace, monospace",
  "--border-radius-sm": "0",
  "--border-radius-md": "0",
};

export interface HostContextOptions {
  /** The app's theme. Default: dark where the tile's Carbon background is dark, else light. */
  theme?: "light" | "dark";
  /** Default: the browser's language. */
  locale?: string;
  maxHeight: number;
}

/**
 * What the page tells an app of itself as it initializes: its theme, Carbon's
 * colors and type as MCP Apps' style variables (read where the tile is, so
 * they follow the chat's theme), the locale and time zone, and that the app
 * is shown inline, as wide as the tile and at most `maxHeight` high.
 */
export function hostContextOf(tile: HTMLElement, options: HostContextOptions): McpUiHostContext {
  const computed = tile.ownerDocument.defaultView?.getComputedStyle(tile);
  const read = (token: string, fallback: string) => computed?.getPropertyValue(token).trim() || fallback;
  const variables = Object.fromEntries(Object.entries(CARBON_TOKENS).map(([name, [token, fallback]]) => [name, read(token, fallback)]));
  const background = read("--cds-layer-01", "#f4f4f4");
  return {
    theme: options.theme ?? (isDark(background) ? "dark" : "light"),
    styles: { variables: { ...variables, ...FONTS } as McpUiStyles },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { maxHeight: options.maxHeight, width: Math.round(tile.getBoundingClientRect().width) || 600 },
    locale: options.locale ?? tile.ownerDocument.defaultView?.navigator.language ?? "en",
    timeZone: pageTimeZone(),
    platform: "web",
  };
}

/**
 * Calls `changed` when what `hostContextOf` reads of the tile may have
 * changed: its width (a `ResizeObserver`), or its theme's colors (the tile's
 * background and text, drawn from Carbon's tokens, run a 1 ms transition
 * when a theme is switched, so the page hears the switch without polling).
 * Returns what stops it.
 */
export function watchHostContext(tile: HTMLElement, changed: () => void): () => void {
  const window_ = tile.ownerDocument.defaultView;
  const resized = window_?.ResizeObserver ? new window_.ResizeObserver(changed) : undefined;
  resized?.observe(tile);
  const restyled = (event: Event) => event.target === tile && changed();
  tile.addEventListener("transitionrun", restyled);
  return () => {
    resized?.disconnect();
    tile.removeEventListener("transitionrun", restyled);
  };
}

/** The page's IANA time zone, read once: a `DateTimeFormat` costs the main thread a few milliseconds to make. */
let timeZone: string | undefined;
const pageTimeZone = () => (timeZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/** Whether a CSS color (`#rrggbb`, `#rgb` or `rgb(…)`) is dark: its relative luminance under 0.4. */
export function isDark(color: string): boolean {
  const channels = channelsOf(color.trim());
  if (!channels) return false;
  const [r, g, b] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4;
}

function channelsOf(color: string): number[] | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (hex) return hex.length === 3 ? [...hex].map((digit) => parseInt(digit + digit, 16)) : [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(color);
  return rgb ? rgb.slice(1, 4).map(Number) : undefined;
}
