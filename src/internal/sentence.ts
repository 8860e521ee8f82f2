/** `text` ending in a full stop, unless it ends in one already (or in ! ? …). */
export const sentence = (text: string): string => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);
