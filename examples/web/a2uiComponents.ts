/**
 * The Carbon web components the A2UI renderer draws surfaces with, beyond those Carbon AI Chat registers itself:
 * a page that shows A2UI surfaces imports them once. Without them the renderer falls back to native controls styled
 * with Carbon's tokens.
 */
import "@carbon/web-components/es/components/checkbox/index.js";
import "@carbon/web-components/es/components/dropdown/index.js";
import "@carbon/web-components/es/components/modal/index.js";
import "@carbon/web-components/es/components/notification/index.js";
import "@carbon/web-components/es/components/radio-button/index.js";
import "@carbon/web-components/es/components/skeleton-text/index.js";
import "@carbon/web-components/es/components/slider/index.js";
import "@carbon/web-components/es/components/tabs/index.js";
import "@carbon/web-components/es/components/text-input/index.js";
import "@carbon/web-components/es/components/textarea/index.js";
import "@carbon/web-components/es/components/tile/index.js";
