// Starts a real PocketBase (fresh temporary data, the project's migrations and hooks) and a real
// MailDev on free ports for the integration suites, and stops both afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { UNTHROTTLED, freePort, startPocketBase } from "../../scripts/lib/pocketbase.mjs";
import { startMailDev } from "../../scripts/lib/maildev.mjs";

export const SUPERUSER = { email: "superuser@screenroom.test", password: "superuser-password-123" };

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), "screenroom-it-"));
  const mail = await startMailDev({ smtpPort: await freePort(), webPort: await freePort() });
  const port = await freePort();
  const pb = await startPocketBase({
    port,
    dataDir,
    publicDir: join(dataDir, "public"),
    superuser: SUPERUSER,
    env: { ...UNTHROTTLED, APP_URL: "http://app.screenroom.test", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(mail.smtpPort) },
  });
  project.provide("pbUrl", pb.url);
  project.provide("mailUrl", mail.url);
  project.provide("mailSmtpPort", mail.smtpPort);
  project.provide("superuser", SUPERUSER);
  // where the server keeps its files, for suites that check what it left on disk (staged takes)
  project.provide("pbDataDir", dataDir);
  return async () => {
    await pb.stop();
    await mail.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pbUrl: string;
    mailUrl: string;
    mailSmtpPort: number;
    superuser: { email: string; password: string };
    pbDataDir: string;
  }
}
