#!/usr/bin/env node
// `node scripts/bench/submit-time.mjs [--minutes=1,5,10] [--runs=3]`: the server's share of issue 20 point 4. A take
// of each length (long-answers.mjs) is staged in one-second parts sent straight to the parts route (no browser, no
// throttle), then submitted (POST /api/screenroom/answers with `staged`), and the submit request is timed: it should
// cost the same at any length (the take's file is moved into storage, server/internal/takes/staged_takes.go), where the
// browser bench (slow-link.mjs) also counts the link and the screens. A PocketBase of its own; prints each run and the
// medians.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { randomId } from "../seed.mjs";
import { answerOf, longAnswerQuestion } from "./long-answers.mjs";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "1,5,10" }, runs: { type: "string", default: "3" } } });
const MINUTES = values.minutes.split(",").map(Number);
const RUNS = Math.max(1, parseInt(values.runs, 10) || 3);
const SU = { email: "submit-time-probe@screenroom.test", password: "submit-time-probe-password" };

const dataDir = mkdtempSync(join(tmpdir(), "screenroom-submit-time-"));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startPocketBase({ port, dataDir, publicDir: join(dataDir, "public"), superuser: SU, env: UNTHROTTLED });
const rows = [];
try {
  const { question, newCandidate } = await longAnswerQuestion(url, SU);
  for (const minutes of MINUTES) {
    const file = answerOf(minutes);
    const slice = Math.ceil(file.length / (minutes * 60));
    const times = [];
    for (let run = 0; run < RUNS; run++) {
      const candidate = await newCandidate();
      const take = randomId();
      const headers = { "X-Candidate-Key": candidate.secret };
      for (let offset = 0; offset < file.length; offset += slice) {
        const end = Math.min(file.length, offset + slice);
        const query = new URLSearchParams({ question: question.id, ms: String(Math.round((end / file.length) * minutes * 60_000)), ...(end === file.length ? { last: "1" } : {}) });
        const res = await fetch(`${url}/api/screenroom/takes/${take}/parts/${offset}?${query}`, { method: "PUT", headers: { ...headers, "Content-Type": "application/octet-stream" }, body: file.subarray(offset, end) });
        if (!res.ok) throw new Error(`part at ${offset}: ${res.status} ${await res.text()}`);
      }
      const started = performance.now();
      const res = await fetch(`${url}/api/screenroom/answers`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ id: take, candidate: candidate.id, question: question.id, staged: true, size: file.length, fileName: "answer.webm" }),
      });
      const ms = Math.round(performance.now() - started);
      if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
      console.log(`${minutes} min (${(file.length / 1e6).toFixed(1)} MB): submit ${ms} ms`);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    rows.push({ minutes, bytes: file.length, submitMs: times[Math.floor(times.length / 2)], runs: times });
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log("");
for (const r of rows) console.log(`${`${r.minutes} min`.padEnd(7)} ${(r.bytes / 1e6).toFixed(1).padStart(6)} MB   submit median ${r.submitMs} ms (${r.runs.join(", ")})`);
console.log(JSON.stringify({ rows }));
