/** A Carbon icon as `@carbon/icons` 11 draws it at 16 px: its grid and its paths (checked against the package in spec/renderers/icons.spec.ts). */
export interface CarbonIcon {
  viewBox: string;
  paths: readonly string[];
}

export const RENEW_16: CarbonIcon = { viewBox: "0 0 32 32", paths: ["M12,10H6.78A11,11,0,0,1,27,16h2A13,13,0,0,0,6,7.68V4H4v8h8Z", "M20,22h5.22A11,11,0,0,1,5,16H3a13,13,0,0,0,23,8.32V28h2V20H20Z"] };
export const CHEVRON_LEFT_16: CarbonIcon = { viewBox: "0 0 16 16", paths: ["M5 8 10 3 10.7 3.7 6.4 8 10.7 12.3 10 13z"] };
export const CHEVRON_RIGHT_16: CarbonIcon = { viewBox: "0 0 16 16", paths: ["M11 8 6 13 5.3 12.3 9.6 8 5.3 3.7 6 3z"] };

/** `icon` as a 16 px SVG in the current text color, hidden from assistive technology (its button carries the label). */
export function iconElement(document: Document, icon: CarbonIcon, slot?: string): SVGSVGElement {
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: icon.viewBox, width: "16", height: "16", fill: "currentColor", "aria-hidden": "true", focusable: "false" })) svg.setAttribute(name, value);
  if (slot) svg.setAttribute("slot", slot);
  for (const d of icon.paths) svg.appendChild(document.createElementNS(SVG, "path")).setAttribute("d", d);
  return svg;
}
