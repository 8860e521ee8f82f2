import { CHEVRON_LEFT_16, CHEVRON_RIGHT_16, CLOSE_16, EDIT_16, RENEW_16, type CarbonIcon } from "../../src/renderers/icons";

/** The icon as `@carbon/icons` (installed with Carbon AI Chat) ships it. */
function carbonIcon(name: string): CarbonIcon {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(`@carbon/icons/lib/${name}/16.js`) as { default?: unknown } & Record<string, unknown>;
  const descriptor = (module.default ?? module) as { attrs: { viewBox: string }; content: { elem: string; attrs: { d: string } }[] };
  return { viewBox: descriptor.attrs.viewBox, paths: descriptor.content.filter((part) => part.elem === "path").map((part) => part.attrs.d) };
}

describe("the Carbon icons the renderers draw", () => {
  it.each([
    ["renew", RENEW_16],
    ["chevron--left", CHEVRON_LEFT_16],
    ["chevron--right", CHEVRON_RIGHT_16],
    ["edit", EDIT_16],
    ["close", CLOSE_16],
  ])("%s is @carbon/icons' own", (name, icon) => {
    expect(icon).toEqual(carbonIcon(name));
  });
});
