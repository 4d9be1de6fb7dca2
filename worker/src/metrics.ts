// The media worker's Prometheus endpoint (docs/operations.md, "Metrics"): its own queue, the jobs it finished and how
// long they took, and Node's process figures. Off unless WORKER_METRICS_LISTEN is set; the same rule as the server's
// endpoint (server/internal/metrics/endpoint.go, CheckEndpoint): loopback, or a METRICS_TOKEN of at least 32
// characters presented as `Authorization: Bearer <token>`.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { BlockList, isIP } from "node:net";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const MIN_TOKEN_LENGTH = 32;

export interface MetricsEndpointConfig {
  /** host:port */
  listen: string;
  /** "" for none (loopback only) */
  token: string;
}

export interface QueueStats {
  queued: number;
  running: number;
  /** when the job queued longest was added (ms since the epoch); undefined when none is queued */
  oldestQueuedAt: number | undefined;
}

/** host and port of a host:port ("[::1]:9465" too); null when it is not one. */
export function splitListen(listen: string): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(listen);
  if (!match) return null;
  const port = Number(match[3]);
  if (port > 65535) return null;
  return { host: match[1] ?? match[2] ?? "", port };
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");
loopback.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

/** Whether host is a loopback address (127.0.0.0/8, ::1); a name never is (it may resolve elsewhere). */
function isLoopback(host: string): boolean {
  const family = isIP(host);
  return family !== 0 && loopback.check(host, family === 4 ? "ipv4" : "ipv6");
}

/** What is wrong with the endpoint's configuration, in the words the operator reads; null when nothing is. */
export function endpointProblem({ listen, token }: MetricsEndpointConfig): string | null {
  const at = splitListen(listen);
  if (!at) return `WORKER_METRICS_LISTEN must be host:port (e.g. 127.0.0.1:9465), not "${listen}".`;
  if (token && token.length < MIN_TOKEN_LENGTH) return `METRICS_TOKEN must have at least ${MIN_TOKEN_LENGTH} characters (e.g. openssl rand -hex 32).`;
  if (!token && !isLoopback(at.host)) {
    return `WORKER_METRICS_LISTEN=${listen} is reachable from other machines: set METRICS_TOKEN, or listen on 127.0.0.1.`;
  }
  return null;
}

/** A job's result as the worker reports it (worker.ts JobResult), or "error" for one that threw. */
export type JobOutcome = string;

export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly jobs: Counter<"result">;
  private readonly duration: Histogram<"result">;

  constructor(stats: () => QueueStats) {
    collectDefaultMetrics({ register: this.registry, prefix: "screenroom_worker_" });
    new Gauge({
      name: "screenroom_worker_queued_jobs",
      help: "Video answers this worker has queued and not started.",
      registers: [this.registry],
      collect() {
        this.set(stats().queued);
      },
    });
    new Gauge({
      name: "screenroom_worker_running_jobs",
      help: "Video answers this worker is working on now.",
      registers: [this.registry],
      collect() {
        this.set(stats().running);
      },
    });
    new Gauge({
      name: "screenroom_worker_oldest_queued_job_age_seconds",
      help: "How long the job queued longest in this worker has waited; 0 when none waits.",
      registers: [this.registry],
      collect() {
        const oldest = stats().oldestQueuedAt;
        this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
      },
    });
    this.jobs = new Counter({
      name: "screenroom_worker_jobs_total",
      help: "Jobs this worker finished, by result: done, language_unsupported, retry, failed, skipped, error.",
      labelNames: ["result"],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: "screenroom_worker_job_duration_seconds",
      help: "Time a job took, from its claim to its result, by result.",
      labelNames: ["result"],
      // a transcript of a short answer takes seconds; a long recording with pocketsphinx, minutes
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [this.registry],
    });
    // every result's series from the start, so a rate() over it has a zero to start from
    for (const result of ["done", "language_unsupported", "retry", "failed", "skipped", "error"]) {
      this.jobs.labels(result).inc(0);
      this.duration.zero({ result });
    }
  }

  jobFinished(result: JobOutcome, seconds: number): void {
    this.jobs.labels(result).inc();
    this.duration.labels(result).observe(seconds);
  }
}

/**
 * Serves `metrics` at /metrics on config.listen (checked by endpointProblem first): 401 without the token when there
 * is one, 404 for any other path, 405 for a method other than GET or HEAD. Resolves once listening.
 */
export async function startMetricsServer(config: MetricsEndpointConfig, metrics: WorkerMetrics): Promise<Server> {
  const problem = endpointProblem(config);
  if (problem) throw new Error(problem);
  const at = splitListen(config.listen)!;
  const wanted = createHash("sha256").update(config.token).digest();
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found.\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain" }).end("Method not allowed.\n");
      return;
    }
    if (config.token) {
      const header = req.headers.authorization ?? "";
      const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : null;
      // compared as hashes: the time taken says nothing of the token's length or of a matching prefix
      const got = createHash("sha256").update(presented ?? "").digest();
      if (presented === null || !timingSafeEqual(got, wanted)) {
        res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="screenroom metrics"', "Content-Type": "text/plain" }).end("A valid metrics token is required.\n");
        return;
      }
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(req.method === "HEAD" ? undefined : text),
      (err: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(`${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host || undefined, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.unref();
  return server;
}
