/**
 * What the demo agents read from what the person typed, so that a scripted
 * answer follows the question: the city, the files, the address, the ticker.
 */

/** The cities the demo agent has (made-up) forecasts for. */
export const FORECAST_CITIES = ["Oslo", "Paris", "London", "New York", "Tokyo"] as const;

/**
 * The city the text names: one of `FORECAST_CITIES` in any case, else a
 * capitalised name after "in", "for" or "at" ("weather in Reykjavik?").
 */
export function cityIn(text: string): string | undefined {
  const known = FORECAST_CITIES.find((city) => new RegExp(`\\b${city}\\b`, "i").test(text));
  return known ?? /\b(?:in|for|at)\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)/u.exec(text)?.[1];
}

/** File names with an extension ("report.pdf", "notes-2.txt"), in the order typed. */
export const filesIn = (text: string): string[] => [...text.matchAll(/[\w-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,8}\b/g)].map((match) => match[0]).filter((name) => !name.includes("@"));

/** The e-mail address the text names. */
export const addressIn = (text: string): string | undefined => /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text)?.[0];

/** A stock ticker: a word of two to five capitals. */
export const tickerIn = (text: string): string | undefined => /\b[A-Z]{2,5}\b/.exec(text)?.[0];

/** What follows "that" ("e-mail ops that the deploy finished"), capitalised: the gist of a message. */
export function gistIn(text: string): string | undefined {
  const gist = /\bthat\s+(.+?)[.!?]*$/i.exec(text.trim())?.[1];
  return gist === undefined ? undefined : `${gist.charAt(0).toUpperCase()}${gist.slice(1)}`;
}

/** "Oslo, Paris and Tokyo". */
export const listed = (names: readonly string[]): string => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);
