#!/usr/bin/env node
// Issue 18's figure: how long a 1,000-row CSV import takes on the server (the requests' time, as the SPA sends it:
// ten requests of 100 rows under one import id), and how long the mail queue then takes to send the 1,000 e-mails to
// a local mail catcher at its pace. Runnable alone: `node scripts/bench/csv-import.mjs` (builds the server if needed,
// starts a PocketBase and a MailDev of its own on free ports, deletes their data at the end).
//   --runs=N           imports to time (each into a new job; default 3), the median is the figure
//   --per-second=N     the mail queue's pace (MAIL_QUEUE_PER_SECOND; default the server's default, 5)
//   --no-mail          time the imports only
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import PocketBase from "pocketbase";
import { startMailDev } from "../lib/maildev.mjs";
import { ensurePocketBase, freePort, root, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "3" }, "per-second": { type: "string" }, "no-mail": { type: "boolean", default: false } },
});
const runs = Math.max(1, parseInt(values.runs, 10) || 3);
const SU = { email: "bench-csv@screenroom.test", password: "bench-csv-password-123" };

ensurePocketBase();
const mail = await startMailDev({ smtpPort: await freePort(), webPort: await freePort() });
const dataDir = mkdtempSync(join(tmpdir(), "screenroom-bench-csv-"));
const env = { ...UNTHROTTLED, APP_URL: "http://bench.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(mail.smtpPort) };
// the queue's own pace, not the test stacks' fast one, unless told
delete env.MAIL_QUEUE_PER_SECOND;
if (values["per-second"]) env.MAIL_QUEUE_PER_SECOND = values["per-second"];
const server = await startPocketBase({ port: await freePort(), dataDir, publicDir: join(dataDir, "public"), superuser: SU, env });

try {
  const su = new PocketBase(server.url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const password = "bench-manager-password";
  const email = "bench-manager@screenroom.test";
  await su.collection("users").create({ email, password, passwordConfirm: password, firstName: "Bench", lastName: "Manager", verified: true });
  const manager = new PocketBase(server.url);
  manager.autoCancellation(false);
  await manager.collection("users").authWithPassword(email, password);
  const logo = new File([readFileSync(join(root, "tests", "fixtures", "logo.png"))], "logo.png", { type: "image/png" });
  const company = await manager.collection("companies").create({ name: "Bench CSV", website: "https://bench.example.com", logo });
  const question = await manager.collection("questions").create({ company: company.id, title: "Why us?", description: "Tell us why", timeout: 60, canPreview: true });
  await manager.collection("text_questions").create({ question: question.id });

  const seconds = [];
  const firstStarted = performance.now();
  for (let run = 0; run < runs; run += 1) {
    const job = await manager.collection("jobs").create({ company: company.id, title: `Bench job ${run}`, description: "Bench job", location: "Remote", questions: [question.id] });
    const rows = Array.from({ length: 1000 }, (_, i) => ({ email: `r${run}-p${i}@bench.test`, firstName: `P${i}`, lastName: "Bench" }));
    const importId = `bench-${run}-${Date.now().toString(36)}`;
    const started = performance.now();
    let created = 0;
    for (let i = 0; i < rows.length; i += 100) {
      const res = await manager.send(`/api/screenroom/jobs/${job.id}/invites/bulk`, { method: "POST", body: { importId, rows: rows.slice(i, i + 100) } });
      created += res.created;
    }
    const took = (performance.now() - started) / 1000;
    if (created !== 1000) throw new Error(`run ${run}: ${created} created, not 1000`);
    seconds.push(took);
    console.log(`import ${run + 1}/${runs}: 1,000 rows in ${took.toFixed(2)} s (10 requests of 100)`);
  }
  const sorted = [...seconds].sort((a, b) => a - b);
  console.log(`1,000-row import, request time: median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} s (min ${sorted[0].toFixed(2)}, max ${sorted.at(-1).toFixed(2)}) over ${runs} run(s)`);

  if (!values["no-mail"]) {
    // every import's e-mails, from the first import's start until MailDev holds them all: the queue's real pace
    const total = runs * 1000;
    for (;;) {
      const res = await fetch(`${mail.url}/email`);
      const all = await res.json();
      if (all.length >= total) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const took = (performance.now() - firstStarted) / 1000;
    console.log(
      `mail queue: ${total} e-mails delivered ${took.toFixed(1)} s after the first import started: ${(total / took).toFixed(1)} a second ` +
        `(MAIL_QUEUE_PER_SECOND ${env.MAIL_QUEUE_PER_SECOND ?? "5, the default"}; one SMTP session per e-mail to a local MailDev)`,
    );
  }
} finally {
  await server.stop();
  await mail.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
