// What the worker suites (and the recorded-formats suite) share: a worker configuration for the test server, and
// a stored answer's file downloaded as the superuser.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { expect, inject } from "vitest";
import type { WorkerConfig } from "../../worker/src/config";
import { pbUrl, randomId } from "../helpers";
import { admin } from "../support";

/** A media worker's configuration for the server the tests run against (pocketsphinx unless `overrides` say). */
export function workerConfig(overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  const { email, password } = inject("superuser");
  return {
    pbUrl: pbUrl(),
    email,
    password,
    workerId: `test-worker-${randomId()}`,
    policy: { leaseMs: 600_000, maxAttempts: 3 },
    rescanMs: 3_600_000,
    provider: { kind: "pocketsphinx", modelDir: "/usr/share/pocketsphinx/model/en-us" },
    ...overrides,
  };
}

/** The stored file of a video answer, downloaded as the superuser into a temporary folder: its path. */
export async function downloadStored(record: RecordModel): Promise<string> {
  const su = await admin();
  const res = await fetch(su.files.getURL(record, record.file as string, { token: await su.files.getToken() }));
  expect(res.status).toBe(200);
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-stored-")), record.file as string);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  return path;
}
