// Entry point, run through worker/run.mjs: `node worker/run.mjs --url URL --email E --password P`
// (or env PB_URL, PB_SUPERUSER_EMAIL, PB_SUPERUSER_PASSWORD). See worker/src/config.ts for every option.
import { ClientResponseError } from "pocketbase";
import { loadConfig } from "./config";
import { startMetricsServer, WorkerMetrics, type QueueStats } from "./metrics";
import { MediaWorker } from "./worker";

async function main() {
  let config;
  try {
    config = loadConfig(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  }
  // read at each scrape, after `worker` exists
  const metrics: WorkerMetrics | undefined = config.metrics && new WorkerMetrics((): QueueStats => worker.queueStats());
  const worker: MediaWorker = new MediaWorker(config, { metrics });
  // listening before the sign-in: a worker that cannot reach PocketBase still answers, with its queue at 0
  if (config.metrics && metrics) {
    try {
      await startMetricsServer(config.metrics, metrics);
      console.log(`[worker] metrics at http://${config.metrics.listen}/metrics${config.metrics.token ? " (bearer token)" : ""}`);
    } catch (err) {
      console.error(`[worker] cannot serve metrics on WORKER_METRICS_LISTEN=${config.metrics.listen}: ${err instanceof Error ? err.message : err}`);
      process.exit(2);
    }
  }
  const stop = async () => {
    await worker.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  // PocketBase may still be starting: keep trying to sign in rather than dying.
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      await worker.start();
      return;
    } catch (err) {
      const reason =
        err instanceof ClientResponseError
          ? err.status === 0
            ? `PocketBase is not reachable at ${config.pbUrl}`
            : `superuser sign-in refused (${err.status}): check the e-mail and password`
          : err instanceof Error
            ? err.message
            : String(err);
      console.error(`[worker] cannot start yet: ${reason}; retrying in ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

void main();
