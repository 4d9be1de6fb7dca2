// Security issue 13, finding 7: a candidate's credential is in the page's path (/candidates/{key}), so no page or
// asset may send it on in a Referer, and the production pages carry a Content-Security-Policy that allows the
// build's inline script by its sha256, never 'unsafe-inline' (decisions.md). The SMTP item: the mail server's
// username, password and TLS come from the environment like its host and port.
//
// Runs PocketBases of its own: the shared one serves an empty public dir, and the SMTP settings are read on start.
// The public dir holds what a build would: an index.html with one inline script, an asset, and the csp.json the
// build's plugin (scripts/vite-csp.ts) makes from that HTML.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, startPocketBase } from "../../scripts/lib/pocketbase.mjs";
import { cspManifest } from "../../scripts/vite-csp";

const inlineScript = "(function(){var p=location.pathname;document.documentElement.dataset.path=p})()";
const indexHtml =
  "<!doctype html><html><head><title>Screenroom</title>" +
  `<script>${inlineScript}</script>` +
  '<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>' +
  '</head><body><div id="root"></div></body></html>';
/** What a browser compares the inline script with, computed here without the plugin. */
const inlineScriptHash = `'sha256-${createHash("sha256").update(inlineScript).digest("base64")}'`;

const SMTP_USERNAME = "screenroom-mailer";
const SMTP_PASSWORD = "first-smtp-password";

let dir: string;
let publicDir: string;
let server: { url: string; stop: () => Promise<void> } | undefined;
let smtp: FakeSmtp;

async function restart(env: Record<string, string>) {
  await server?.stop();
  server = undefined;
  const started = await startPocketBase({
    port: await freePort(),
    dataDir: join(dir, "pb"),
    publicDir,
    superuser: inject("superuser"),
    env: { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_USERNAME, ...env },
  });
  server = started;
  return started;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "screenroom-headers-"));
  publicDir = join(dir, "public");
  mkdirSync(join(publicDir, "assets"), { recursive: true });
  writeFileSync(join(publicDir, "index.html"), indexHtml);
  writeFileSync(join(publicDir, "assets", "index-Ab12Cd34.js"), "export {};\n");
  writeFileSync(join(publicDir, "csp.json"), JSON.stringify(cspManifest([indexHtml], undefined)));
  smtp = await startFakeSmtp();
  await restart({ SMTP_PASSWORD, SMTP_TLS: "true" });
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) => fetch(server!.url + path, { redirect: "manual" });

/** directive name → its sources */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy, "Content-Security-Policy header").toBeTruthy();
  return new Map(
    policy!.split(";").map((part) => {
      const [name = "", ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe("Referrer-Policy", () => {
  it.each(["/", "/candidates/Zx81candidateKey", "/auth/sign-in", "/assets/index-Ab12Cd34.js"])(
    "is no-referrer on %s",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    },
  );

  it("is no-referrer on the SPA index served for a deep route", async () => {
    const response = await get("/companies/abc/jobs/def/candidates");
    expect(await response.text()).toBe(indexHtml);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });
});

describe("Content-Security-Policy of the SPA's pages", () => {
  it.each(["/", "/candidates/Zx81candidateKey"])("allows the inline script on %s by its exact sha256", async (path) => {
    const response = await get(path);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = directives(response.headers.get("content-security-policy"));
    expect(policy.get("script-src")).toEqual(["'self'", inlineScriptHash]);
  });

  it("allows nothing inline or evaluated for scripts, and only the page's own origin", async () => {
    const policy = directives((await get("/auth/sign-in")).headers.get("content-security-policy"));
    const scriptSources = policy.get("script-src") ?? [];
    expect(scriptSources).not.toContain("'unsafe-inline'");
    expect(scriptSources).not.toContain("'unsafe-eval'");
    expect(scriptSources.filter((source) => !source.startsWith("'sha256-"))).toEqual(["'self'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("media-src")).toEqual(["'self'", "blob:"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  });
});

describe("SMTP settings from the environment", () => {
  const settingsAsSuperuser = async () => {
    const pb = new PocketBase(server!.url);
    const { email, password } = inject("superuser");
    await pb.collection("_superusers").authWithPassword(email, password);
    return { pb, settings: await pb.settings.getAll() };
  };

  it("shows SMTP_USERNAME and SMTP_TLS to a superuser, never the password", async () => {
    const { settings } = await settingsAsSuperuser();
    expect(settings.smtp).toMatchObject({ host: "127.0.0.1", port: smtp.port, username: SMTP_USERNAME, tls: true });
    expect(JSON.stringify(settings)).not.toContain(SMTP_PASSWORD);
  });

  it("turns TLS off again with SMTP_TLS=false and signs in to the mail server with SMTP_PASSWORD", async () => {
    await restart({ SMTP_PASSWORD: "second-smtp-password", SMTP_TLS: "false" });
    const { pb, settings } = await settingsAsSuperuser();
    expect(settings.smtp).toMatchObject({ username: SMTP_USERNAME, tls: false });

    await pb.settings.testEmail("_superusers", "someone@screenroom.test", "verification");
    expect(smtp.logins).toContainEqual({ username: SMTP_USERNAME, password: "second-smtp-password" });
    expect(smtp.recipients).toContain("someone@screenroom.test");
  });
});

type FakeSmtp = {
  port: number;
  logins: { username: string; password: string }[];
  recipients: string[];
  stop: () => Promise<void>;
};

/**
 * Just enough of an SMTP server to see what PocketBase's mailer signs in with (MailDev cannot require a login from
 * this suite): it offers AUTH PLAIN and LOGIN without STARTTLS, accepts any login and any message.
 */
async function startFakeSmtp(): Promise<FakeSmtp> {
  const logins: FakeSmtp["logins"] = [];
  const recipients: string[] = [];
  const decode = (text: string) => Buffer.from(text, "base64").toString("utf8");
  const server: Server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let loginUser: string | undefined;
    let awaiting: "plain" | "login-user" | "login-password" | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const plain = (response: string) => {
      const [, username = "", password = ""] = decode(response).split("\0");
      logins.push({ username, password });
      reply("235 2.7.0 Authentication successful");
    };
    reply("220 fake-smtp.screenroom.test ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            reply("250 2.0.0 queued");
          }
          continue;
        }
        if (awaiting === "plain") {
          awaiting = undefined;
          plain(line);
          continue;
        }
        if (awaiting === "login-user") {
          loginUser = decode(line);
          awaiting = "login-password";
          reply(`334 ${Buffer.from("Password:").toString("base64")}`);
          continue;
        }
        if (awaiting === "login-password") {
          awaiting = undefined;
          logins.push({ username: loginUser ?? "", password: decode(line) });
          reply("235 2.7.0 Authentication successful");
          continue;
        }
        const [verb = "", ...rest] = line.split(" ");
        switch (verb.toUpperCase()) {
          case "EHLO":
            reply("250-fake-smtp.screenroom.test");
            reply("250-AUTH PLAIN LOGIN");
            reply("250 8BITMIME");
            break;
          case "AUTH":
            if (rest[0]?.toUpperCase() === "PLAIN") {
              if (rest[1]) plain(rest[1]);
              else {
                awaiting = "plain";
                reply("334 ");
              }
            } else {
              awaiting = "login-user";
              reply(`334 ${Buffer.from("Username:").toString("base64")}`);
            }
            break;
          case "RCPT":
            recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
            reply("250 2.1.5 OK");
            break;
          case "DATA":
            inData = true;
            reply("354 End data with <CR><LF>.<CR><LF>");
            break;
          case "QUIT":
            reply("221 2.0.0 Bye");
            socket.end();
            break;
          default:
            reply("250 OK");
        }
      }
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the fake SMTP server has no port");
  return {
    port: address.port,
    logins,
    recipients,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
