import { effect, getValue, peekValue, type ComponentNode } from "@a2ui/web_core/v0_9";
import type { PaintContext, Painter } from "./paintContext";
import { paintButton } from "./paintButton";
import { paintChoicePicker } from "./paintChoicePicker";
import { paintCheckBox, paintDateTimeInput, paintSlider, paintTextField } from "./paintInputs";
import { paintCard, paintDivider, paintFlex } from "./paintLayout";
import { paintAudio, paintIcon, paintImage, paintText, paintVideo } from "./paintMedia";
import { paintModal, paintTabs } from "./paintTabsAndModal";

/** The painter of each type of A2UI's basic catalog. */
const PAINTERS: Readonly<Record<string, Painter>> = {
  Text: paintText,
  Image: paintImage,
  Icon: paintIcon,
  Video: paintVideo,
  AudioPlayer: paintAudio,
  Row: paintFlex("row"),
  Column: paintFlex("column"),
  List: paintFlex("list"),
  Card: paintCard,
  Tabs: paintTabs,
  Modal: paintModal,
  Divider: paintDivider,
  Button: paintButton,
  CheckBox: paintCheckBox,
  TextField: paintTextField,
  ChoicePicker: paintChoicePicker,
  Slider: paintSlider,
  DateTimeInput: paintDateTimeInput,
};

/**
 * Draws `node`, a component of web_core's resolved tree, and keeps the
 * drawing in step with its props (an effect on the node's props signal,
 * ended when web_core disposes the node). A component of a type outside the
 * basic catalog is not drawn (one warning per type); nor is one that has not
 * arrived yet, nor one that repeats an ancestor (web_core reports the cycle).
 * A `weight` grows the element in its Row or Column.
 */
export function paintComponent(node: ComponentNode, context: PaintContext): HTMLElement | undefined {
  if (node.state === "unknown-type") {
    context.warnOnce(`type:${node.type}`, `Component type ${JSON.stringify(node.type.slice(0, 60))} is not in the basic catalog: components of that type are not drawn.`);
    return undefined;
  }
  const painter = Object.hasOwn(PAINTERS, node.type) ? PAINTERS[node.type] : undefined;
  if (node.state !== "resolved" || !painter) return undefined;
  const painted = painter(node, peekValue(node.props), context);
  painted.element.dataset.a2uiId = node.componentId;
  const stop = effect(() => {
    const props = getValue(node.props);
    painted.update(props);
    if (typeof props.weight === "number") painted.element.style.flexGrow = String(props.weight);
  });
  node.addCleanup(stop);
  return painted.element;
}
