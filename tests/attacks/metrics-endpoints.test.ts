// The Prometheus endpoints (server/internal/metrics, worker/src/metrics.ts, docs/operations.md "Metrics") hold
// figures about every company: who may read them. With METRICS_TOKEN set, a scrape without it, with another token,
// with another scheme or with the token in the query string gets 401 and no figure, from the server's endpoint and
// the worker's alike; an endpoint bound to a loopback address takes no connection on any other address of the
// machine, and PocketBase's own port (the one the proxy publishes) serves none; a server or a worker whose endpoint
// would be open to the network without a token, or with a short one, refuses to start and says why.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startWorker } from "../../worker/run.mjs";
import { freePort, startPocketBase, stopChild } from "../../scripts/lib/pocketbase.mjs";
import { type OwnServer, pbUrl, useOwnServer } from "../helpers";
import { fetchMetrics, listensOn, scrape, until } from "../metrics-support";

const token = randomBytes(32).toString("hex");
let server: OwnServer;
let worker: ChildProcess | undefined;
let metricsPort: number;
let workerMetricsPort: number;
let serverMetrics: string;
let workerMetrics: string;

beforeAll(async () => {
  metricsPort = await freePort();
  workerMetricsPort = await freePort();
  serverMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  workerMetrics = `http://127.0.0.1:${workerMetricsPort}/metrics`;
  server = await useOwnServer({ METRICS_LISTEN: `127.0.0.1:${metricsPort}`, METRICS_TOKEN: token });
  const { email, password } = inject("superuser");
  worker = await startWorker({
    url: pbUrl(),
    superuser: { email, password },
    env: { WORKER_METRICS_LISTEN: `127.0.0.1:${workerMetricsPort}`, METRICS_TOKEN: token },
    onOutput: () => {},
  });
  // both answer the right token (the worker listens before it signs in)
  await until(() => scrape(workerMetrics, token).catch(() => null), (figures) => figures !== null, "the worker's endpoint");
  await scrape(serverMetrics, token);
});

afterAll(async () => {
  if (worker) await stopChild(worker);
  await server?.stop();
});

describe("the metrics endpoints", () => {
  it("answers 401 with no figures to a scrape without the token, with a wrong one, or with it in the query string", async () => {
    for (const url of [serverMetrics, workerMetrics]) {
      for (const authorization of ["", "Bearer", `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, `Basic ${token}`, token, `bearer ${token}`]) {
        const res = await fetchMetrics(url, null, { authorization });
        expect(res.status, `${url} with Authorization "${authorization}"`).toBe(401);
        expect(res.text).not.toContain("screenroom_");
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      }
      const inQuery = await fetchMetrics(`${url}?token=${token}`, null);
      expect(inQuery.status).toBe(401);
      expect((await fetchMetrics(url, token)).status).toBe(200);
    }
  });

  it("listens on the loopback address it was given only: another address of this machine is refused", async () => {
    for (const port of [metricsPort, workerMetricsPort]) {
      expect(listensOn("127.0.0.1", port)).toEqual({ exact: true, wildcard: false });
      // a listener on every interface would take this connection
      await expect(fetch(`http://127.0.0.2:${port}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).rejects.toThrow();
    }
    // and PocketBase's own port, the one the proxy publishes, has no metrics
    const onApp = await fetch(`${pbUrl()}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await onApp.text()).not.toContain("screenroom_http_requests_total");
  });

  it("refuses to start a server or a worker whose figures would be open to the network without a token", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "screenroom-metrics-open-"));
    try {
      await expect(
        startPocketBase({ port: await freePort(), dataDir, publicDir: join(dataDir, "public"), env: { METRICS_LISTEN: `0.0.0.0:${await freePort()}` } }),
      ).rejects.toThrow(/METRICS_LISTEN=0\.0\.0\.0:\d+ is reachable from other machines: set METRICS_TOKEN/);
      await expect(
        startPocketBase({ port: await freePort(), dataDir, publicDir: join(dataDir, "public"), env: { METRICS_LISTEN: `127.0.0.1:${await freePort()}`, METRICS_TOKEN: "short" } }),
      ).rejects.toThrow(/METRICS_TOKEN must have at least 32 characters/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const { email, password } = inject("superuser");
    for (const [env, message] of [
      [{ WORKER_METRICS_LISTEN: `0.0.0.0:${await freePort()}`, METRICS_TOKEN: "" }, /is reachable from other machines: set METRICS_TOKEN/],
      [{ WORKER_METRICS_LISTEN: `[::]:${await freePort()}`, METRICS_TOKEN: "" }, /is reachable from other machines: set METRICS_TOKEN/],
      [{ WORKER_METRICS_LISTEN: `127.0.0.1:${await freePort()}`, METRICS_TOKEN: "short" }, /METRICS_TOKEN must have at least 32 characters/],
    ] as const) {
      let output = "";
      const child = await startWorker({ url: pbUrl(), superuser: { email, password }, env, onOutput: (text: string) => void (output += text) });
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      expect(code).toBe(2);
      expect(output).toMatch(message);
    }
  });
});

