// Configuration from command-line flags (--url, --email, --password, ...) or the environment.
import { hostname } from "node:os";
import { DEFAULT_POLICY, type JobPolicy } from "./jobs";
import { endpointProblem, type MetricsEndpointConfig } from "./metrics";
import { DEFAULT_TIMEOUTS, type TimeoutPolicy } from "./timeouts";

export type ProviderConfig =
  | { kind: "pocketsphinx"; modelDir: string }
  | { kind: "whisper"; url: string; apiKey: string; model: string };

export interface WorkerConfig {
  pbUrl: string;
  email: string;
  password: string;
  workerId: string;
  policy: JobPolicy;
  rescanMs: number;
  /** every request to PocketBase (timeouts.ts); absent: DEFAULT_TIMEOUTS */
  timeouts?: TimeoutPolicy;
  provider: ProviderConfig;
  /** the Prometheus endpoint (worker/src/metrics.ts); undefined when WORKER_METRICS_LISTEN is unset */
  metrics?: MetricsEndpointConfig;
}

export const USAGE = `usage: node worker/run.mjs [--url URL] [--email E] [--password P] [--worker-id NAME]
  --url       PocketBase origin               (env PB_URL, default http://127.0.0.1:8090)
  --email     superuser e-mail                 (env PB_SUPERUSER_EMAIL)
  --password  superuser password               (env PB_SUPERUSER_PASSWORD)
  --worker-id this worker's name in claims      (env WORKER_ID, default media-worker@HOST); stable across
              restarts so a restarted worker takes back its own unfinished job; give each worker running
              at the same time its own
Transcription: TRANSCRIBE_PROVIDER=pocketsphinx (default, English only) | whisper (every job language), with TRANSCRIBE_URL, TRANSCRIBE_API_KEY,
TRANSCRIBE_MODEL (default whisper-1); POCKETSPHINX_MODEL_DIR (default /usr/share/pocketsphinx/model/en-us).
Jobs: WORKER_MAX_ATTEMPTS (3), WORKER_LEASE_SECONDS (600), WORKER_RESCAN_SECONDS (60).
Timeouts: WORKER_REQUEST_TIMEOUT_SECONDS (30) for every request to PocketBase, plus WORKER_TRANSFER_SECONDS_PER_MB (1)
for each megabyte of a recording downloaded or uploaded.
Metrics: WORKER_METRICS_LISTEN (host:port, off when unset), METRICS_TOKEN (needed off the loopback).`;

export function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    if (eq > 0) out[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) out[arg.slice(2)] = argv[++i]!;
    else out[arg.slice(2)] = "true";
  }
  return out;
}

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const args = parseArgs(argv);
  const email = args.email ?? env.PB_SUPERUSER_EMAIL ?? "";
  const password = args.password ?? env.PB_SUPERUSER_PASSWORD ?? "";
  if (!email || !password) throw new Error(`The worker needs superuser credentials.\n${USAGE}`);
  const url = env.TRANSCRIBE_URL ?? "";
  const kind = (env.TRANSCRIBE_PROVIDER ?? (url ? "whisper" : "pocketsphinx")).toLowerCase();
  let provider: ProviderConfig;
  if (kind === "whisper" || kind === "http") {
    if (!url) throw new Error("TRANSCRIBE_PROVIDER=whisper needs TRANSCRIBE_URL (e.g. https://api.openai.com/v1/audio/transcriptions).");
    provider = { kind: "whisper", url, apiKey: env.TRANSCRIBE_API_KEY ?? "", model: env.TRANSCRIBE_MODEL || "whisper-1" };
  } else if (kind === "pocketsphinx") {
    provider = { kind: "pocketsphinx", modelDir: env.POCKETSPHINX_MODEL_DIR || "/usr/share/pocketsphinx/model/en-us" };
  } else {
    throw new Error(`Unknown TRANSCRIBE_PROVIDER "${kind}": use pocketsphinx or whisper.`);
  }
  const listen = (env.WORKER_METRICS_LISTEN ?? "").trim();
  const metrics = listen ? { listen, token: (env.METRICS_TOKEN ?? "").trim() } : undefined;
  const problem = metrics && endpointProblem(metrics);
  if (problem) throw new Error(problem);
  const seconds = (value: string | undefined, fallback: number) => (Number(value) > 0 ? Number(value) : fallback);
  return {
    pbUrl: (args.url ?? env.PB_URL ?? "http://127.0.0.1:8090").replace(/\/+$/, ""),
    email,
    password,
    workerId: args["worker-id"] ?? env.WORKER_ID ?? `media-worker@${hostname()}`,
    policy: {
      maxAttempts: seconds(env.WORKER_MAX_ATTEMPTS, DEFAULT_POLICY.maxAttempts),
      leaseMs: seconds(env.WORKER_LEASE_SECONDS, DEFAULT_POLICY.leaseMs / 1000) * 1000,
    },
    rescanMs: seconds(env.WORKER_RESCAN_SECONDS, 60) * 1000,
    timeouts: {
      requestMs: seconds(env.WORKER_REQUEST_TIMEOUT_SECONDS, DEFAULT_TIMEOUTS.requestMs / 1000) * 1000,
      transferMsPerMB: seconds(env.WORKER_TRANSFER_SECONDS_PER_MB, DEFAULT_TIMEOUTS.transferMsPerMB / 1000) * 1000,
    },
    provider,
    metrics,
  };
}
