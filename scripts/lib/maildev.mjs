// MailDev 2.x, the local mail catcher: every e-mail in development and tests lands here.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { assertPortFree, root, stopChild, StackError } from "./pocketbase.mjs";

export async function startMailDev({ smtpPort, webPort, stdio = "pipe" }) {
  await assertPortFree(smtpPort, "MailDev SMTP");
  await assertPortFree(webPort, "MailDev web");
  const bin = join(root, "node_modules", "maildev", "bin", "maildev");
  const child = spawn(
    process.execPath,
    [bin, "--smtp", String(smtpPort), "--web", String(webPort), "--ip", "127.0.0.1", "--silent"],
    { stdio: stdio === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (c) => (output += c));
  child.stderr?.on("data", (c) => (output += c));
  const url = `http://127.0.0.1:${webPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new StackError(`MailDev exited while starting: ${output}`);
    try {
      const res = await fetch(`${url}/email`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new StackError(`MailDev did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, smtpPort, webPort, child, stop: () => stopChild(child) };
}
