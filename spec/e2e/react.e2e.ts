import { expect as expectPage } from "@jest/globals";
import type { Page } from "playwright-core";
import { useBrowserDemo } from "./browser";

const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');

// The React page: Carbon's ChatContainer with the library's cards mounted through renderUserDefinedResponse.
describe("the React demo page in Chromium: ChatContainer with renderUserDefinedResponse", () => {
  const demo = useBrowserDemo();

  it("streams an answer, shows the decision card in Carbon's components, and approves it", async () => {
    const { page, send, snapshot } = await demo.open("react");
    await send("Hi there");
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    await send("Please delete my old files");
    const approve = page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor();
    expectPage(await page.locator(".cagr-card-approve").evaluate((element) => element.localName)).toBe("cds-button");
    await snapshot("react-decision-card");
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
    expectPage(await page.locator(".cagr-decision-card .cagr-card-status").textContent()).toBe("Approved.");
  });

  it("shows a clarification card", async () => {
    const { page, send } = await demo.open("react");
    await send("Book a table");
    await page.locator(".cagr-clarification-card", { hasText: "Which date should I book?" }).waitFor();
  });
});
