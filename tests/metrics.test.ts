// The Prometheus endpoints (server/internal/metrics, worker/src/metrics.ts) as the stack works: every figure is read
// through prom2json, Prometheus's own text parser, and checked by its exact change (N answers stored: the counter +N).
// The server replicates to an S3 server on loopback (versitygw) with Litestream beside it, as deployed with
// REPLICA_URL, so its endpoint reports the replication lag Litestream gives. Then Debian's Prometheus scrapes both
// endpoints with the token, and every query of the Grafana dashboard (docs/grafana/screenroom.json) names only metrics
// the endpoints expose and answers in that Prometheus.
// Who may read the figures: tests/attacks/metrics-endpoints.test.ts.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { parser } from "@prometheus-io/lezer-promql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startWorker } from "../worker/run.mjs";
import { freePort, stopChild } from "../scripts/lib/pocketbase.mjs";
import { ensurePrometheus, parseExposition, startPrometheus } from "../scripts/lib/prometheus.mjs";
import { listDatabases, replicationSettings, startLitestream } from "../scripts/lib/litestream.mjs";
import { startS3Server } from "../scripts/lib/s3server.mjs";
import { createBucket } from "./s3-support";
import {
  type OwnServer,
  answerText,
  answerVideo,
  keyOf,
  newCandidateOf,
  pbUrl,
  randomId,
  statusOf,
  uniqueEmail,
  useOwnServer,
  world,
} from "./helpers";
import { FakeSmtp, type Figures, Receiver, scrape, until } from "./metrics-support";

const token = randomBytes(32).toString("hex");
const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, "..", "docs", "grafana", "screenroom.json"), "utf8")) as {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
};

let server: OwnServer;
let smtp: FakeSmtp;
let receiver: Receiver;
let metricsPort: number;
let serverMetrics: string;
let workerMetricsPort: number;
let workerMetrics: string;
let worker: ChildProcess | undefined;
let workerOutput = "";
let w: Awaited<ReturnType<typeof world>>;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let workDir: string;
let replication: NonNullable<ReturnType<typeof replicationSettings>>;
let litestream: Awaited<ReturnType<typeof startLitestream>> | undefined;

const readServer = () => scrape(serverMetrics, token);
const readWorker = () => scrape(workerMetrics, token);

beforeAll(async () => {
  smtp = await new FakeSmtp().start();
  receiver = await new Receiver().start();
  metricsPort = await freePort();
  serverMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  workerMetricsPort = await freePort();
  workerMetrics = `http://127.0.0.1:${workerMetricsPort}/metrics`;
  workDir = mkdtempSync(join(tmpdir(), "screenroom-metrics-"));
  s3 = await startS3Server({ port: await freePort(), dataDir: join(workDir, "s3") });
  await createBucket(s3);
  // the replica's own variables (.env.example, "Continuous replication"); the files stay on local disk
  const replicaEnv = {
    REPLICA_URL: `s3://${s3.bucket}/replica`,
    REPLICA_ENDPOINT: s3.url,
    REPLICA_REGION: s3.region,
    REPLICA_ACCESS_KEY: s3.accessKey,
    REPLICA_SECRET: s3.secret,
    REPLICA_FORCE_PATH_STYLE: "true",
    REPLICA_METRICS_ADDR: "off",
  };
  const dataDir = join(workDir, "data");
  server = await useOwnServer(
    {
      ...replicaEnv,
      METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
      METRICS_TOKEN: token,
      SMTP_PORT: String(smtp.port),
      // a refused e-mail waits an hour for its retry: it stays in the queue while the test reads it
      MAIL_QUEUE_RETRY_SECONDS: "3600",
      MAIL_QUEUE_PER_SECOND: "50",
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1",
      WEBHOOKS_RETRY_BASE_MS: "3600000",
      WEBHOOKS_POLL_MS: "100",
    },
    { dataDir },
  );
  replication = replicationSettings(replicaEnv, dataDir)!;
  litestream = await startLitestream(replication);
  w = await world("metrics");
});

afterAll(async () => {
  if (worker) await stopChild(worker);
  await litestream?.stop();
  await server?.stop();
  await s3?.stop();
  await smtp?.stop();
  await receiver?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The mail queue settled: nothing pending that is due, every send recorded. */
async function mailSettled(): Promise<Figures> {
  let previous = -1;
  return until(
    async () => {
      const figures = await readServer();
      return figures;
    },
    (figures) => {
      const total = figures.value("screenroom_mail_sent_total") + figures.value("screenroom_mail_send_failures_total");
      const settled = figures.value("screenroom_mail_queue_messages", { status: "pending" }) === 0 && total === previous;
      previous = total;
      return settled;
    },
    "the mail queue to settle",
  );
}

describe("the server's endpoint", () => {
  it("counts N answers stored as +N by kind, and a refused answer as nothing", async () => {
    const before = await readServer();
    const candidates = [await newCandidateOf(w, "m1"), await newCandidateOf(w, "m2"), await newCandidateOf(w, "m3")];
    for (const candidate of candidates) await answerText(candidate, w.text.question.id);
    // one video answer: each is a job for the worker below (a transcript each), which the suite's time pays for
    await answerVideo(candidates[0]!, w.video.question.id);
    // the same question again: refused (one answer per question), nothing stored
    expect(await statusOf(() => answerText(candidates[0]!, w.text.question.id))).toBe(400);
    const after = await readServer();

    expect(after.value("screenroom_answers_stored_total", { kind: "text" }) - before.value("screenroom_answers_stored_total", { kind: "text" })).toBe(3);
    expect(after.value("screenroom_answers_stored_total", { kind: "video" }) - before.value("screenroom_answers_stored_total", { kind: "video" })).toBe(1);
    // the answers route: four answered 200, one 400, each timed once
    const route = { route: "/api/screenroom/answers", method: "POST" };
    const delta = (code: string) => after.value("screenroom_http_requests_total", { ...route, code }) - before.value("screenroom_http_requests_total", { ...route, code });
    expect(delta("200")).toBe(4);
    expect(delta("400")).toBe(1);
    expect(after.count("screenroom_http_request_duration_seconds", route) - before.count("screenroom_http_request_duration_seconds", route)).toBe(5);
  });

  it("labels requests by the route they matched, never by the path a client sent", async () => {
    const before = await readServer();
    const paths = ["/api/no-such-route/a", "/api/no-such-route/b", "/api/no-such-route/c"];
    for (const path of paths) expect((await fetch(`${pbUrl()}${path}`, { method: "DELETE" })).status).toBe(404);
    await w.manager.pb.collection("jobs").getOne(w.job.id);
    const after = await readServer();
    const routes = new Set(after.family("screenroom_http_requests_total").metrics.map((s) => s.labels?.route));
    for (const path of paths) expect(routes).not.toContain(path);
    const other = { route: "other", method: "DELETE", code: "404" };
    expect(after.value("screenroom_http_requests_total", other) - before.value("screenroom_http_requests_total", other)).toBe(3);
    const view = { route: "/api/collections/{collection}/records/{id}", method: "GET", code: "200" };
    expect(after.value("screenroom_http_requests_total", view) - before.value("screenroom_http_requests_total", view)).toBe(1);
  });

  it("shows an upload in flight while its bytes arrive, and none once it is answered", async () => {
    const candidate = await newCandidateOf(w, "upload");
    const key = (await keyOf(candidate)) ?? candidate;
    const route = { route: "/api/screenroom/takes/{takeId}/parts/{offset}" };
    expect((await readServer()).value("screenroom_uploads_in_flight", route)).toBe(0);
    const bytes = readFileSync(join(import.meta.dirname, "fixtures", "answer.webm"));
    const url = new URL(`${pbUrl()}/api/screenroom/takes/${randomId()}/parts/0?question=${w.video.question.id}&ms=1000`);
    let answered: (status: number) => void;
    const status = new Promise<number>((resolve) => (answered = resolve));
    const req = request(url, {
      method: "PUT",
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length), "X-Candidate-Key": key },
    });
    req.on("response", (res) => {
      res.resume();
      answered(res.statusCode ?? 0);
    });
    // half the part, then a pause: the upload is under way
    req.write(bytes.subarray(0, bytes.length >> 1));
    await until(readServer, (f) => f.value("screenroom_uploads_in_flight", route) === 1, "the part to show as in flight");
    req.end(bytes.subarray(bytes.length >> 1));
    expect(await status).toBe(200);
    await until(readServer, (f) => f.value("screenroom_uploads_in_flight", route) === 0, "the part to be done");
  });

  it("counts e-mails sent, and refused ones as failures that stay queued", async () => {
    const before = await mailSettled();
    const sentBefore = smtp.accepted.length;
    for (let i = 0; i < 2; i++) await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("mail-ok") });
    const sent = await until(readServer, (f) => f.value("screenroom_mail_sent_total") - before.value("screenroom_mail_sent_total") >= 2, "two e-mails sent");
    expect(sent.value("screenroom_mail_sent_total") - before.value("screenroom_mail_sent_total")).toBe(2);
    expect(smtp.accepted.length - sentBefore).toBe(2);
    expect(sent.value("screenroom_mail_send_failures_total")).toBe(before.value("screenroom_mail_send_failures_total"));

    smtp.refusing = true;
    try {
      for (let i = 0; i < 3; i++) await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("mail-refused") });
      const failed = await until(
        readServer,
        (f) => f.value("screenroom_mail_send_failures_total") - before.value("screenroom_mail_send_failures_total") >= 3,
        "three refused e-mails",
      );
      expect(failed.value("screenroom_mail_send_failures_total") - before.value("screenroom_mail_send_failures_total")).toBe(3);
      // retried in an hour: queued, pending, not given up
      expect(failed.value("screenroom_mail_queue_messages", { status: "pending" }) - before.value("screenroom_mail_queue_messages", { status: "pending" })).toBe(3);
      expect(failed.value("screenroom_mail_given_up_total")).toBe(before.value("screenroom_mail_given_up_total"));
      expect(failed.value("screenroom_mail_sent_total") - before.value("screenroom_mail_sent_total")).toBe(2);
    } finally {
      smtp.refusing = false;
    }
  });

  it("counts webhook deliveries and failures, and the failed one waiting in the queue", async () => {
    const hooked = await world("metrics-hooks");
    await hooked.manager.pb.collection("webhook_endpoints").create({ company: hooked.company.id, url: receiver.url(), events: ["candidate.invited"] });
    const before = await readServer();
    await hooked.manager.pb.collection("candidates").create({ job: hooked.job.id, email: uniqueEmail("hook-ok") });
    const delivered = await until(
      readServer,
      (f) => f.value("screenroom_webhook_deliveries_total") - before.value("screenroom_webhook_deliveries_total") >= 1,
      "one delivery",
    );
    expect(delivered.value("screenroom_webhook_deliveries_total") - before.value("screenroom_webhook_deliveries_total")).toBe(1);
    expect(delivered.value("screenroom_webhook_delivery_failures_total")).toBe(before.value("screenroom_webhook_delivery_failures_total"));

    receiver.status = 500;
    await hooked.manager.pb.collection("candidates").create({ job: hooked.job.id, email: uniqueEmail("hook-500") });
    const failed = await until(
      readServer,
      (f) => f.value("screenroom_webhook_delivery_failures_total") - before.value("screenroom_webhook_delivery_failures_total") >= 1,
      "one failed attempt",
    );
    expect(failed.value("screenroom_webhook_delivery_failures_total") - before.value("screenroom_webhook_delivery_failures_total")).toBe(1);
    expect(failed.value("screenroom_webhook_deliveries_total") - before.value("screenroom_webhook_deliveries_total")).toBe(1);
    // retried in an hour
    expect(failed.value("screenroom_webhook_queue_deliveries", { status: "pending" }) - before.value("screenroom_webhook_queue_deliveries", { status: "pending" })).toBe(1);
    expect(failed.value("screenroom_webhook_deliveries_given_up_total")).toBe(before.value("screenroom_webhook_deliveries_given_up_total"));
    receiver.status = 200;
  });
});

describe("the replication lag, from Litestream beside the server", () => {
  it("reports each database's time since its last upload, as Litestream's control socket says it", async () => {
    // a write, then the time Litestream says both databases last reached the replica
    await answerText(await newCandidateOf(w, "replicated"), w.text.question.id);
    type Listed = Awaited<ReturnType<typeof listDatabases>>;
    const synced = (list: Listed) => list.length === 2 && list.every((db) => db.last_sync_at);
    const listed = await until(() => listDatabases(replication.socketPath), synced, "Litestream to upload both databases");
    const figures = await readServer();
    const read = Date.now();
    expect(figures.value("screenroom_replication_up")).toBe(1);
    const lags = figures.family("screenroom_replication_lag_seconds").metrics;
    expect(lags.map((s) => s.labels?.database).sort()).toEqual(["auxiliary.db", "data.db"]);
    for (const db of listed) {
      const name = db.path.split("/").pop()!;
      const lag = figures.value("screenroom_replication_lag_seconds", { database: name });
      // Litestream's time of the last upload can only have moved on between the list and the scrape: the lag is at
      // most the time since the listed upload, and never negative
      expect(lag, name).toBeGreaterThanOrEqual(0);
      expect(lag, name).toBeLessThanOrEqual((read - Date.parse(db.last_sync_at!)) / 1000);
    }
  });
});

describe("the media worker's queue, on the server's endpoint and the worker's", () => {
  it("counts the video answers waiting with the age of the oldest, then the worker's jobs as it works them", async () => {
    const first = Date.now();
    await answerVideo(await newCandidateOf(w, "queue"), w.video.question.id);
    const waiting = await readServer();
    // no worker has run on this server: the first test's video answer and this one wait
    expect(waiting.value("screenroom_media_queue_jobs")).toBe(2);
    const oldest = waiting.value("screenroom_media_queue_oldest_job_age_seconds");
    expect(oldest).toBeGreaterThan((Date.now() - first) / 1000);

    const { email, password } = inject("superuser");
    worker = await startWorker({
      url: pbUrl(),
      superuser: { email, password },
      env: { WORKER_METRICS_LISTEN: `127.0.0.1:${workerMetricsPort}`, METRICS_TOKEN: token, WORKER_ID: `metrics-${randomId()}` },
      onOutput: (text: string) => void (workerOutput += text),
    });
    const done = await until(
      () => readWorker().catch(() => null),
      (f) => f !== null && f.value("screenroom_worker_jobs_total", { result: "done" }) === 2,
      "the worker to finish both jobs",
      180_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${workerOutput}`);
    });
    // nothing else finished but the two: a job can also end "skipped" (offered twice, by a realtime event and a scan,
    // the second claim finds it taken), which is not a failure and not counted as done
    for (const result of ["failed", "error", "retry", "language_unsupported"]) {
      expect(done!.value("screenroom_worker_jobs_total", { result }), result).toBe(0);
    }
    expect(done!.count("screenroom_worker_job_duration_seconds", { result: "done" })).toBe(2);
    expect(done!.value("screenroom_worker_queued_jobs")).toBe(0);
    expect(done!.value("screenroom_worker_running_jobs")).toBe(0);
    expect(done!.value("screenroom_worker_oldest_queued_job_age_seconds")).toBe(0);
    expect(done!.value("screenroom_worker_process_resident_memory_bytes")).toBeGreaterThan(0);
    const emptied = await readServer();
    expect(emptied.value("screenroom_media_queue_jobs")).toBe(0);
    expect(emptied.value("screenroom_media_queue_oldest_job_age_seconds")).toBe(0);
  }, 240_000);
});

describe("Debian's Prometheus scraping both endpoints", () => {
  let prometheus: Awaited<ReturnType<typeof startPrometheus>> | undefined;
  let dir: string;

  beforeAll(async () => {
    ensurePrometheus();
    dir = mkdtempSync(join(tmpdir(), "screenroom-prometheus-"));
    writeFileSync(join(dir, "token"), token);
    writeFileSync(join(dir, "wrong-token"), "w".repeat(64));
    const job = (name: string, target: string, credentials: string) =>
      [
        `  - job_name: ${name}`,
        `    authorization:`,
        `      type: Bearer`,
        `      credentials_file: ${join(dir, credentials)}`,
        `    static_configs:`,
        `      - targets: ["${target}"]`,
      ].join("\n");
    prometheus = await startPrometheus({
      port: await freePort(),
      dataDir: join(dir, "prometheus"),
      config: [
        "global:",
        "  scrape_interval: 1s",
        "  scrape_timeout: 1s",
        "scrape_configs:",
        job("screenroom", `127.0.0.1:${metricsPort}`, "token"),
        job("screenroom-worker", `127.0.0.1:${workerMetricsPort}`, "token"),
        job("screenroom-wrong-token", `127.0.0.1:${metricsPort}`, "wrong-token"),
        "",
      ].join("\n"),
    });
  });

  afterAll(async () => {
    await prometheus?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function query(expr: string) {
    const res = await fetch(`${prometheus!.url}/api/v1/query?${new URLSearchParams({ query: expr })}`);
    const body = (await res.json()) as { status: string; error?: string; data: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    return body;
  }

  it("scrapes the server and the worker with the token (and a wrong token is refused), with the endpoints' own figures", async () => {
    type Target = { labels: { job: string }; health: string; lastError: string };
    const targets = await until(
      async () => ((await (await fetch(`${prometheus!.url}/api/v1/targets`)).json()) as { data: { activeTargets: Target[] } }).data.activeTargets,
      (list) => list.length === 3 && list.every((t) => t.health !== "unknown"),
      "Prometheus to scrape its three targets",
    );
    const health = Object.fromEntries(targets.map((t) => [t.labels.job, t.health]));
    expect(health).toEqual({ screenroom: "up", "screenroom-worker": "up", "screenroom-wrong-token": "down" });
    expect(targets.find((t) => t.labels.job === "screenroom-wrong-token")!.lastError).toMatch(/401/);

    // what Prometheus stored is what the endpoints say (no answer is stored meanwhile)
    const direct = await readServer();
    const stored = await until(
      () => query('sum(screenroom_answers_stored_total{job="screenroom"})'),
      (r) => r.data.result.length === 1 && Number(r.data.result[0]!.value[1]) === direct.value("screenroom_answers_stored_total"),
      "Prometheus to hold the answers stored",
    );
    expect(Number(stored.data.result[0]!.value[1])).toBe(6);
    const jobs = await query('sum(screenroom_worker_jobs_total{job="screenroom-worker", result="done"})');
    expect(Number(jobs.data.result[0]!.value[1])).toBe(2);
  });

  it("the Grafana dashboard queries only metrics the endpoints expose, and each answers in Prometheus", async () => {
    const exposed = new Set([...(await readServer()).seriesNames(), ...(await readWorker()).seriesNames()]);
    const expressions = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
    expect(expressions.length).toBeGreaterThan(10);
    const named = new Set<string>();
    for (const { panel, expr } of expressions) {
      // Grafana's own variable for a rate's window; the test's Prometheus scrapes every second
      const promql = expr.replaceAll("$__rate_interval", "1m");
      const tree = parser.parse(promql);
      const names: string[] = [];
      let broken = false;
      tree.iterate({
        enter: (node) => {
          if (node.type.isError) broken = true;
          if (node.name === "Identifier" && node.node.parent?.name === "VectorSelector") names.push(promql.slice(node.from, node.to));
        },
      });
      expect(broken, `${panel}: ${expr} does not parse`).toBe(false);
      expect(names.length, `${panel}: ${expr} names no metric`).toBeGreaterThan(0);
      for (const name of names) {
        expect(exposed, `${panel} queries ${name}, which no endpoint exposes`).toContain(name);
        named.add(name);
      }
      const answer = await query(promql);
      expect(answer.status, `${panel}: ${answer.error ?? ""}`).toBe("success");
    }
    // the dashboard shows what the issue asks for
    for (const name of [
      "screenroom_http_requests_total",
      "screenroom_http_request_duration_seconds_bucket",
      "screenroom_answers_stored_total",
      "screenroom_uploads_in_flight",
      "screenroom_media_queue_jobs",
      "screenroom_media_queue_oldest_job_age_seconds",
      "screenroom_mail_queue_messages",
      "screenroom_mail_send_failures_total",
      "screenroom_webhook_deliveries_total",
      "screenroom_webhook_delivery_failures_total",
      "screenroom_replication_lag_seconds",
    ]) {
      expect(named, `the dashboard shows ${name}`).toContain(name);
    }
    // and its gauges have data in Prometheus now (a name could exist and still never be scraped)
    for (const name of named) {
      const present = await query(`count(${name})`);
      expect(present.data.result.length, `Prometheus has ${name}`).toBe(1);
    }
  });

  it("parses with a real parser: prom2json refuses text that is not the exposition format", () => {
    expect(() => parseExposition("screenroom_answers_stored_total one\n")).toThrow(/prom2json could not parse/);
    expect(() => parseExposition("screenroom_answers_stored_total{kind=video} 1\n")).toThrow(/prom2json could not parse/);
    expect(parseExposition('screenroom_answers_stored_total{kind="video"} 1\n')).toEqual([
      { name: "screenroom_answers_stored_total", help: "", type: "UNTYPED", metrics: [{ labels: { kind: "video" }, value: "1" }] },
    ]);
  });
});

describe("replication stopped", () => {
  it("says Litestream is not answering, and reports no lag it does not know", async () => {
    await litestream!.stop();
    litestream = undefined;
    const figures = await readServer();
    expect(figures.value("screenroom_replication_up")).toBe(0);
    expect(figures.byName.has("screenroom_replication_lag_seconds")).toBe(false);
  });
});
