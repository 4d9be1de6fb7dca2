// `npm start`: the whole product on this machine. Installs what is missing, builds PocketBase once,
// applies migrations, seeds demo data on the first run, starts PocketBase, MailDev and the Vite dev
// server, prints the URLs and logins, and stops everything on Ctrl-C. Data lives in .data/.
// PocketBase and the media worker are restarted when they die (scripts/lib/supervise.mjs has the policy); if
// MailDev or Vite dies, or one of the two keeps dying, everything stops with a message saying which.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeModules, ensureSystemPackages, SYSTEM_PACKAGES } from "./lib/deps.mjs";
import { assertPortFree, ensurePocketBase, root, StackError, startPocketBase, stopChild, waitForPortFree } from "./lib/pocketbase.mjs";
import { describeExit, supervise } from "./lib/supervise.mjs";

const PORTS = {
  pocketbase: Number(process.env.PB_PORT || 8090),
  vite: Number(process.env.VITE_PORT || 5173),
  mailWeb: Number(process.env.MAILDEV_WEB_PORT || 1080),
  mailSmtp: Number(process.env.MAILDEV_SMTP_PORT || 1025),
};
export const DEV_SUPERUSER = { email: "admin@screenroom.test", password: "admin-password-123" };
const dataDir = join(root, ".data", "pocketbase");
const seededMarker = join(root, ".data", "seeded");
/** everything started so far, each with how to stop it */
const running = [];
const say = (line) => console.error(`[stack] ${line}`);

async function main() {
  ensureNodeModules();
  // ffmpeg and pocketsphinx serve the media worker; chromium, strace and the production smoke test's tools are only
  // for tests
  const testOnly = ["chromium", "pocketsphinx-testdata", "strace", "nginx", "systemd", "openssl", "unzip"];
  ensureSystemPackages({ packages: SYSTEM_PACKAGES.filter((p) => !testOnly.includes(p.pkg)) });
  ensurePocketBase();
  await assertPortFree(PORTS.vite, "Vite dev server");

  const { startMailDev } = await import("./lib/maildev.mjs");
  const mail = await startMailDev({ smtpPort: PORTS.mailSmtp, webPort: PORTS.mailWeb });
  running.push(() => stopChild(mail.child));
  stopAllWhenItExits(mail.child, "MailDev");
  if (stopping) return;

  const appUrl = `http://127.0.0.1:${PORTS.vite}`;
  mkdirSync(dataDir, { recursive: true });
  const pocketbase = supervise({
    name: "PocketBase",
    start: async ({ restart, signal }) => {
      // a restart reuses the data dir and the port, so the worker and the app find it where it was
      if (restart) await waitForPortFree(PORTS.pocketbase, "PocketBase", { signal });
      const pb = await startPocketBase({
        port: PORTS.pocketbase,
        dataDir,
        // only on the first start: setting the password again renews the superuser's token key, which would sign
        // the running worker out (its requests would get 403s until it is restarted)
        superuser: restart ? undefined : DEV_SUPERUSER,
        env: { APP_URL: appUrl, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(PORTS.mailSmtp) },
        onOutput: (text) => process.stdout.write(`[pocketbase] ${text}`),
      });
      return pb.child;
    },
    hint:
      "Look at the [pocketbase] lines above: a migration (server/pb_migrations) or Go file (server/internal) " +
      `that fails, a full disk or a damaged database in ${dataDir}, or another program on port ${PORTS.pocketbase}.`,
    log: say,
    onGiveUp: () => void shutdown(1),
  });
  running.push(() => pocketbase.stop());
  await pocketbase.started;
  const pbUrl = `http://127.0.0.1:${PORTS.pocketbase}`;
  if (stopping) return;

  const { startWorker } = await import("../worker/run.mjs");
  // when PocketBase restarts, the worker reconnects and resubscribes by itself (same URL, same sign-in); it is
  // restarted only when it dies itself
  const worker = supervise({
    name: "Media worker",
    start: () => startWorker({ url: pbUrl, superuser: DEV_SUPERUSER, env: { WORKER_ID: "dev-media-worker" } }),
    hint: "Look at the [worker] lines above (worker/src; `npm run worker -- --url ...` runs it alone), and check that ffmpeg and pocketsphinx are installed.",
    log: say,
    onGiveUp: () => void shutdown(1),
  });
  running.push(() => worker.stop());
  await worker.started;
  if (stopping) return;

  let demo;
  if (!existsSync(seededMarker)) {
    const { seedDemo } = await import("./seed.mjs");
    demo = await seedDemo({ url: pbUrl, superuser: DEV_SUPERUSER });
    const { seedReviewDemo } = await import("./seed-review.mjs");
    demo.reviewedCandidateId = await seedReviewDemo({ url: pbUrl, jobId: demo.jobId, superuser: DEV_SUPERUSER }).catch((err) => {
      console.error(`Demo answers for the review were not seeded: ${err.message}`);
      return undefined;
    });
    writeFileSync(seededMarker, JSON.stringify(demo, null, 2));
  } else {
    demo = JSON.parse((await import("node:fs")).readFileSync(seededMarker, "utf8"));
  }
  if (stopping) return;

  const vite = spawn(process.execPath, [join(root, "node_modules", "vite", "bin", "vite.js"), "--host", "127.0.0.1", "--port", String(PORTS.vite), "--strictPort"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, VITE_POCKETBASE_URL: pbUrl },
  });
  running.push(() => stopChild(vite));
  stopAllWhenItExits(vite, "The Vite dev server");

  console.log(`
  Screenroom is running.

    App (Vite dev server)   ${appUrl}
    PocketBase API          ${pbUrl}/api/
    PocketBase dashboard    ${pbUrl}/_/          superuser ${DEV_SUPERUSER.email} / ${DEV_SUPERUSER.password}
    MailDev (all e-mails)   ${mail.url}
    Media worker            transcripts and seekable videos (worker/, logs as [worker])

    Demo manager            ${demo.manager.email} / ${demo.manager.password}
    Demo interview          ${appUrl}/candidates/${demo.candidateKey ?? demo.candidateId}${
      demo.reviewedCandidateId
        ? `\n    Demo review (answered)  ${appUrl}/companies/${demo.companyId}/jobs/${demo.jobId}/candidates/${demo.reviewedCandidateId}`
        : ""
    }

  PocketBase and the media worker are restarted if they die. Press Ctrl-C to stop everything.
`);
}

/** MailDev and Vite are not restarted: if one dies, the stack stops rather than run on half-broken. */
function stopAllWhenItExits(child, what) {
  child.once("exit", (code, signal) => {
    if (stopping) return;
    say(`${what} exited (${describeExit({ code, signal })}); only PocketBase and the media worker are restarted.`);
    void shutdown(1);
  });
}

let stopping = false;
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  if (code !== 0) say("Stopping everything.");
  // all at once: each supervisor stops restarting the moment its stop() is called, and Ctrl-C in a terminal has
  // already sent SIGINT to every child anyway
  await Promise.all(running.map((stop) => stop()));
  process.exit(code);
}

process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

// `kill <pid of npm start>` ends npm and its shell but not this process (npm does not pass the signal on): rather
// than hold the ports with nobody left to stop it, the stack stops itself once the shell npm started it in is gone
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid === parent) return;
    say("npm start was killed; stopping everything.");
    void shutdown(0);
  }, 1000).unref();
}

main().catch(async (err) => {
  if (stopping) return; // a start cut short by Ctrl-C
  console.error(err instanceof StackError ? `\n${err.message}\n` : err);
  await shutdown(1);
});
