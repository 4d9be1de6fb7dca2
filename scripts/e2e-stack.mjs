// The stack the end-to-end suite drives: the production build served by PocketBase itself (one
// origin, as in production) with fresh data, and MailDev. Started and stopped by Playwright.
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, startPocketBase, stopChild, StackError, UNTHROTTLED } from "./lib/pocketbase.mjs";
import { startMailDev } from "./lib/maildev.mjs";
import { E2E } from "./lib/e2e-ports.mjs";
import { startWorker } from "../worker/run.mjs";

const dist = join(root, "dist");
if (!existsSync(join(dist, "index.html"))) {
  console.error("dist/ has no build: run `npm run build` first (npm test does it for you).");
  process.exit(1);
}
const dataDir = mkdtempSync(join(tmpdir(), "screenroom-e2e-"));
const children = [];
async function stop() {
  await Promise.all(children.map((c) => stopChild(c)));
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

try {
  const mail = await startMailDev({ smtpPort: E2E.mailSmtp, webPort: E2E.mailWeb });
  children.push(mail.child);
  const pb = await startPocketBase({
    port: E2E.pocketbase,
    dataDir,
    publicDir: dist,
    superuser: E2E.superuser,
    env: {
      ...UNTHROTTLED,
      APP_URL: E2E.appUrl,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(E2E.mailSmtp),
      // the webhook journeys' receiver listens on 127.0.0.1, and moves the server's clock past the time an endpoint may fail
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1",
      SCREENROOM_TEST_CLOCK: "1",
    },
  });
  children.push(pb.child);
  children.push(await startWorker({ url: pb.url, superuser: E2E.superuser, env: { WORKER_ID: "e2e-media-worker" } }));
  console.log(`e2e stack up: ${pb.url} (mail ${mail.url})`);
} catch (err) {
  console.error(err instanceof StackError ? err.message : err);
  await Promise.all(children.map((c) => stopChild(c)));
  process.exit(1);
}
