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

/**
 * Waits for the newest e-mail to `address` (optionally whose subject matches) in the MailDev at
 * `mailUrl`. Shared by the integration and end-to-end suites.
 * @param {string} mailUrl
 * @param {string} address
 * @param {RegExp} [subject]
 * @returns {Promise<{ id: string, subject: string, html: string, to: { address: string }[] }>}
 */
export async function waitForMail(mailUrl, address, subject, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(mailUrl, address)).filter((m) => !subject || subject.test(m.subject)).pop();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * @param {string} mailUrl
 * @param {string} address
 * @returns {Promise<{ id: string, subject: string, html: string, to: { address: string }[] }[]>}
 */
export async function mailsTo(mailUrl, address) {
  const mails = await (await fetch(`${mailUrl}/email`)).json();
  return mails.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** The links of an e-mail's HTML, entities decoded. @param {{ html: string }} mail */
export function linksIn(mail) {
  return [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
}
