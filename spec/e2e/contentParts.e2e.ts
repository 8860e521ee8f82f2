import { useBrowserDemo } from "./browser";

/**
 * A host's message in parts (`adapter.sendContent`) through real Carbon's `send`: Carbon shows it as the person's
 * message, as it reads, and hands it back to the adapter under its id, so the agent gets the parts.
 */
const browsing = useBrowserDemo();

it("sends a message in parts through Carbon's own send: shown as it reads, the parts to the agent", async () => {
  const { page } = await browsing.open("?persist=off");
  await page.waitForFunction("window.chatInstance !== undefined");
  const parts = [
    { type: "text", text: "What is this?" },
    { type: "image", source: { type: "data", value: "iVBORw0KGgo=", mimeType: "image/png" } },
  ];
  await page.evaluate((content) => (window as unknown as { adapter: { sendContent(c: unknown, i: unknown): Promise<void> }; chatInstance: unknown }).adapter.sendContent(content, (window as unknown as { chatInstance: unknown }).chatInstance), parts);
  await page.locator('[data-testid^="message-by-index"]').getByText("Attached image (image/png)").waitFor();
  const received = browsing.agent!.inputs.at(-1)!.messages.at(-1);
  expect(received).toMatchObject({ role: "user", content: parts });
  expect(await page.content()).not.toContain("iVBORw0KGgo=");
});
