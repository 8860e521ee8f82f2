// Run by events.spec.ts in a plain Node process: inside Jest's VM context, fetch bodies stall on their own after a few
// MB, which would hide whether the client holds the server back. Prints what the server managed to write.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolClient } from "../../../src/tool-client/index";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let written = 0;
const event = Buffer.from(`id: x\ndata: {"pad":"${"p".repeat(1000)}"}\n\n`);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const pump = () => {
    while (!response.destroyed && written < 256 * 1024 * 1024) {
      written += event.length;
      if (!response.write(event)) return void response.once("drain", pump);
    }
  };
  pump();
});
server.listen(0, "127.0.0.1", async () => {
  const loop = new ToolClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` }).events("r");
  await loop.next();
  await sleep(400);
  const afterWhile = written;
  await sleep(400);
  const afterLonger = written;
  await loop.return!();
  server.closeAllConnections();
  server.close();
  process.stdout.write(JSON.stringify({ afterWhile, afterLonger }));
});
