// The worker's realtime client against a local server speaking PocketBase's realtime protocol: it subscribes
// with its token after PB_CONNECT, hands over events, and when the stream drops it reconnects and subscribes again.
import { createServer, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectRealtime } from "../../worker/src/realtime";

let server: Server;
let base = "";
const streams: ServerResponse[] = [];
const subscriptions: { clientId: string; subscriptions: string[]; authorization: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/api/realtime") {
      const clientId = `client-${streams.length + 1}`;
      streams.push(res);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`id:${clientId}\nevent:PB_CONNECT\ndata:{"clientId":"${clientId}"}\n\n`);
      return;
    }
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      subscriptions.push({ ...(JSON.parse(body) as { clientId: string; subscriptions: string[] }), authorization: req.headers.authorization ?? "" });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(() => {
  streams.forEach((s) => s.destroy());
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function until(check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("subscribes after PB_CONNECT, delivers events, and reconnects and resubscribes after a drop", async () => {
  const events: unknown[] = [];
  let connected = 0;
  const realtime = connectRealtime({
    url: base,
    topics: ["video_answers"],
    token: async () => "superuser-token",
    onEvent: (topic, data) => events.push({ topic, data }),
    onConnected: () => (connected += 1),
  });
  try {
    await until(() => subscriptions.length === 1);
    expect(subscriptions[0]).toEqual({ clientId: "client-1", subscriptions: ["video_answers"], authorization: "superuser-token" });
    streams[0]!.write('event:video_answers\ndata:{"action":"create","record":{"id":"a1"}}\n\n');
    streams[0]!.write('event:other\ndata:{"ignored":true}\n\n');
    await until(() => events.length === 1);
    expect(events[0]).toEqual({ topic: "video_answers", data: { action: "create", record: { id: "a1" } } });

    streams[0]!.destroy(); // the server goes away mid-stream
    await until(() => subscriptions.length === 2);
    expect(subscriptions[1]).toMatchObject({ clientId: "client-2", subscriptions: ["video_answers"] });
    expect(connected).toBe(2); // each (re)connection triggers a scan for what was missed
    streams[1]!.write('event:video_answers\ndata:{"action":"update","record":{"id":"a2"}}\n\n');
    await until(() => events.length === 2);
  } finally {
    realtime.close();
  }
});
