// `npm start`: the whole product on this machine. Installs what is missing, builds PocketBase once,
// applies migrations, seeds demo data on the first run, starts PocketBase, MailDev and the Vite dev
// server, prints the URLs and logins, and stops everything on Ctrl-C. Data lives in .data/.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeModules, ensureSystemPackages, SYSTEM_PACKAGES } from "./lib/deps.mjs";
import { assertPortFree, ensurePocketBase, root, StackError, startPocketBase, stopChild } from "./lib/pocketbase.mjs";

const PORTS = {
  pocketbase: Number(process.env.PB_PORT || 8090),
  vite: Number(process.env.VITE_PORT || 5173),
  mailWeb: Number(process.env.MAILDEV_WEB_PORT || 1080),
  mailSmtp: Number(process.env.MAILDEV_SMTP_PORT || 1025),
};
export const DEV_SUPERUSER = { email: "admin@screenroom.test", password: "admin-password-123" };
const dataDir = join(root, ".data", "pocketbase");
const seededMarker = join(root, ".data", "seeded");
const children = [];

async function main() {
  ensureNodeModules();
  // ffmpeg and pocketsphinx serve the media worker; chromium is only for tests
  ensureSystemPackages({ packages: SYSTEM_PACKAGES.filter((p) => p.pkg !== "chromium" && p.pkg !== "pocketsphinx-testdata") });
  ensurePocketBase();
  await assertPortFree(PORTS.vite, "Vite dev server");

  const { startMailDev } = await import("./lib/maildev.mjs");
  const mail = await startMailDev({ smtpPort: PORTS.mailSmtp, webPort: PORTS.mailWeb });
  children.push(mail.child);

  const appUrl = `http://127.0.0.1:${PORTS.vite}`;
  mkdirSync(dataDir, { recursive: true });
  const pb = await startPocketBase({
    port: PORTS.pocketbase,
    dataDir,
    superuser: DEV_SUPERUSER,
    env: { APP_URL: appUrl, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(PORTS.mailSmtp) },
    onOutput: (text) => process.stdout.write(`[pocketbase] ${text}`),
  });
  children.push(pb.child);

  const { startWorker } = await import("../worker/run.mjs");
  children.push(await startWorker({ url: pb.url, superuser: DEV_SUPERUSER, env: { WORKER_ID: "dev-media-worker" } }));

  let demo;
  if (!existsSync(seededMarker)) {
    const { seedDemo } = await import("./seed.mjs");
    demo = await seedDemo({ url: pb.url, superuser: DEV_SUPERUSER });
    const { seedReviewDemo } = await import("./seed-review.mjs");
    demo.reviewedCandidateId = await seedReviewDemo({ url: pb.url, jobId: demo.jobId, superuser: DEV_SUPERUSER }).catch((err) => {
      console.error(`Demo answers for the review were not seeded: ${err.message}`);
      return undefined;
    });
    writeFileSync(seededMarker, JSON.stringify(demo, null, 2));
  } else {
    demo = JSON.parse((await import("node:fs")).readFileSync(seededMarker, "utf8"));
  }

  const vite = spawn(process.execPath, [join(root, "node_modules", "vite", "bin", "vite.js"), "--host", "127.0.0.1", "--port", String(PORTS.vite), "--strictPort"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, VITE_POCKETBASE_URL: pb.url },
  });
  children.push(vite);

  console.log(`
  Screenroom is running.

    App (Vite dev server)   ${appUrl}
    PocketBase API          ${pb.url}/api/
    PocketBase dashboard    ${pb.url}/_/          superuser ${DEV_SUPERUSER.email} / ${DEV_SUPERUSER.password}
    MailDev (all e-mails)   ${mail.url}
    Media worker            transcripts and seekable videos (worker/, logs as [worker])

    Demo manager            ${demo.manager.email} / ${demo.manager.password}
    Demo interview          ${appUrl}/candidates/${demo.candidateKey ?? demo.candidateId}${
      demo.reviewedCandidateId
        ? `\n    Demo review (answered)  ${appUrl}/companies/${demo.companyId}/jobs/${demo.jobId}/candidates/${demo.reviewedCandidateId}`
        : ""
    }

  Press Ctrl-C to stop everything.
`);

  await new Promise((resolve) => {
    for (const child of children) child.once("exit", resolve);
  });
  await shutdown(1);
}

let stopping = false;
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map((child) => stopChild(child)));
  process.exit(code);
}

process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

main().catch(async (err) => {
  console.error(err instanceof StackError ? `\n${err.message}\n` : err);
  await Promise.all(children.map((child) => stopChild(child)));
  process.exit(1);
});
