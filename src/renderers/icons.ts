/** A Carbon icon as `@carbon/icons` 11 draws it at 16 px: its grid and its paths (checked against the package in spec/renderers/icons.spec.ts). */
export interface CarbonIcon {
  viewBox: string;
  paths: readonly string[];
}

export const RENEW_16: CarbonIcon = { viewBox: "0 0 32 32", paths: ["M12,10H6.78A11,11,0,0,1,27,16h2A13,13,0,0,0,6,7.68V4H4v8h8Z", "M20,22h5.22A11,11,0,0,1,5,16H3a13,13,0,0,0,23,8.32V28h2V20H20Z"] };
export const CHEVRON_LEFT_16: CarbonIcon = { viewBox: "0 0 16 16", paths: ["M5 8 10 3 10.7 3.7 6.4 8 10.7 12.3 10 13z"] };
export const CHEVRON_RIGHT_16: CarbonIcon = { viewBox: "0 0 16 16", paths: ["M11 8 6 13 5.3 12.3 9.6 8 5.3 3.7 6 3z"] };
export const EDIT_16: CarbonIcon = {
  viewBox: "0 0 32 32",
  paths: ["M2 26H30V28H2z", "M25.4,9c0.8-0.8,0.8-2,0-2.8c0,0,0,0,0,0l-3.6-3.6c-0.8-0.8-2-0.8-2.8,0c0,0,0,0,0,0l-15,15V24h6.4L25.4,9z M20.4,4L24,7.6\tl-3,3L17.4,7L20.4,4z M6,22v-3.6l10-10l3.6,3.6l-10,10H6z"],
};
export const CLOSE_16: CarbonIcon = { viewBox: "0 0 32 32", paths: ["M17.4141 16 24 9.4141 22.5859 8 16 14.5859 9.4143 8 8 9.4141 14.5859 16 8 22.5859 9.4143 24 16 17.4141 22.5859 24 24 22.5859 17.4141 16z"] };

/** `icon` as a 16 px SVG in the current text color, hidden from assistive technology (its button carries the label). */
export function iconElement(document: Document, icon: CarbonIcon, slot?: string): SVGSVGElement {
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: icon.viewBox, width: "16", height: "16", fill: "currentColor", "aria-hidden": "true", focusable: "false" })) svg.setAttribute(name, value);
  if (slot) svg.setAttribute("slot", slot);
  for (const d of icon.paths) svg.appendChild(document.createElementNS(SVG, "path")).setAttribute("d", d);
  return svg;
}
