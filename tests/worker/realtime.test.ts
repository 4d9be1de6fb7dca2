// The worker's realtime subscription (the SDK's client, with the `eventsource` package as Node's EventSource)
// against a real PocketBase of its own that is stopped and started again: it subscribes with the worker's superuser
// session, hands over record events, and after the restart reconnects, signs in again when its token ran out
// meanwhile, resubscribes (a scan follows each time) and hands over events again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase, { type RecordSubscription } from "pocketbase";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { UNTHROTTLED, freePort, startPocketBase } from "../../scripts/lib/pocketbase.mjs";
import { subscribeRealtime } from "../../worker/src/realtime";
import { MediaWorker } from "../../worker/src/worker";

const dataDir = mkdtempSync(join(tmpdir(), "screenroom-realtime-"));
let port = 0;
let server: Awaited<ReturnType<typeof startPocketBase>> | undefined;

const start = async () => {
  server = await startPocketBase({
    port,
    dataDir,
    publicDir: join(dataDir, "public"),
    superuser: inject("superuser"),
    env: { ...UNTHROTTLED, APP_URL: "http://app.screenroom.test", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(inject("mailSmtpPort")) },
  });
  return server.url;
};

beforeAll(async () => {
  port = await freePort();
  await start();
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A user created by a superuser client of the test's own: a record event nobody but a superuser may see. */
async function createUser(url: string, label: string) {
  const su = new PocketBase(url);
  const { email, password } = inject("superuser");
  await su.collection("_superusers").authWithPassword(email, password);
  const pw = "correct-horse-battery";
  return su.collection("users").create({
    email: `${label}-${Date.now().toString(36)}@screenroom.test`,
    password: pw,
    passwordConfirm: pw,
    firstName: "Realtime",
    lastName: label,
  });
}

/** The same token with an `exp` in the past: what the worker holds after running longer than a token lasts. */
function expired(token: string): string {
  const [header, payload] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
  const old = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString("base64url");
  return `${header}.${old}.signature`;
}

it("subscribes as the superuser, hands over events, and after a PocketBase restart signs in again and resubscribes", async () => {
  const { email, password } = inject("superuser");
  const url = server!.url;
  const worker = new MediaWorker({
    pbUrl: url,
    email,
    password,
    workerId: "realtime-test",
    policy: { leaseMs: 600_000, maxAttempts: 3 },
    rescanMs: 3_600_000,
    provider: { kind: "pocketsphinx", modelDir: "/usr/share/pocketsphinx/model/en-us" },
  });
  await worker.signIn();
  const events: RecordSubscription[] = [];
  const lines: string[] = [];
  let connected = 0;
  const unsubscribe = await subscribeRealtime(worker.pb, "users", {
    onEvent: (event) => events.push(event),
    onConnected: () => (connected += 1),
    log: (line) => lines.push(line),
  });
  try {
    await until(() => connected === 1, "the first subscription's PB_CONNECT");
    expect(lines).toEqual(["realtime: subscribed to users/*"]);
    const first = await createUser(url, "before");
    await until(() => events.some((e) => e.record.id === first.id), "the event of a user created before the restart");
    expect(events.find((e) => e.record.id === first.id)?.action).toBe("create");

    await server!.stop();
    await until(() => lines.includes("realtime: connection lost, reconnecting"), "the dropped stream being noticed");
    const session = worker.pb.authStore.record;
    worker.pb.authStore.save(expired(worker.pb.authStore.token), session);
    expect(worker.pb.authStore.isValid).toBe(false);

    await start(); // same port, same data
    await until(() => connected === 2, "a resubscription after the restart", 60_000);
    expect(lines.filter((l) => l === "realtime: subscribed to users/*")).toHaveLength(2);
    expect(worker.pb.authStore.isValid).toBe(true); // signed in again for the resubscription
    const second = await createUser(url, "after");
    await until(() => events.some((e) => e.record.id === second.id), "the event of a user created after the restart");
  } finally {
    await unsubscribe();
  }
  expect(worker.pb.realtime.isConnected).toBe(false);
});
