// Production mode (issue 19): `npm run serve` started from an env file on free ports, with Debian's nginx on loopback
// in front of it running the project's own proxy snippet (deploy/nginx/screenroom-proxy.conf). Checks the built app
// and its headers, the API, the settings taken from the environment, the media worker, a 16 MB staged part and a
// realtime stream through the proxy, the systemd units (systemd-analyze verify), continuous replication (REPLICA_URL
// to a bucket of an S3 server on loopback: Litestream started beside PocketBase), and a backup restored into a fresh
// data dir the way README tells an operator to (unzip, point PB_DATA_DIR at it, start): the backed-up state is
// served, the answer's video included.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase, { type RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { listDatabases } from "../scripts/lib/litestream.mjs";
import { UNTHROTTLED, freePort, root, stopChild } from "../scripts/lib/pocketbase.mjs";
import { startS3Server } from "../scripts/lib/s3server.mjs";
import { fixture, pngFile, putPart, randomId, webmFile } from "./helpers";
import { createBucket } from "./s3-support";

const MB = 1024 * 1024;
const OPERATOR = { email: "ops@screenroom.test", password: "ops-password-123" };
const MANAGER_PASSWORD = "correct-horse-battery";

const has = (command: string) => spawnSync("bash", ["-c", `command -v ${command}`]).status === 0;
const nginxBinary = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";

let work: string;
let served: Served;
let nginx: ChildProcess;
let proxyUrl: string;
let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function envFile(path: string, values: Record<string, string>) {
  writeFileSync(path, Object.entries(values).map(([name, value]) => `${name}=${value}`).join("\n") + "\n");
}

/** `node scripts/serve.mjs --env-file FILE [...]`, resolved once `until` shows in its output. */
async function serve(args: string[], until: RegExp[], timeoutMs = 240_000): Promise<Served> {
  // only what a service would have: no test variables of this run leak into production mode
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" };
  const child = spawn(process.execPath, [join(root, "scripts", "serve.mjs"), ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.mjs did not print ${until.join(", ")} within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
    const check = () => {
      if (until.every((pattern) => pattern.test(output))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.mjs exited (${code}):\n${output.slice(-4000)}`));
    });
  });
  const url = /Screenroom is serving at (\S+)|PocketBase is serving at (\S+)/.exec(output);
  return { child, url: (url?.[1] ?? url?.[2])!, output: () => output };
}

async function startNginx(upstreamPort: number, port: number) {
  const dir = join(work, "nginx");
  mkdirSync(dir, { recursive: true });
  const config = `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      include ${join(root, "deploy", "nginx", "screenroom-proxy.conf")};
    }
  }
}
`;
  writeFileSync(join(dir, "nginx.conf"), config);
  const child = spawn(nginxBinary, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function sdk(url: string, headers: Record<string, string> = {}) {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  pb.beforeSend = (target, options) => {
    options.headers = { ...(options.headers as Record<string, string>), ...headers };
    return { url: target, options };
  };
  return pb;
}

async function asOperator(url: string) {
  const pb = sdk(url);
  await pb.collection("_superusers").authWithPassword(OPERATOR.email, OPERATOR.password);
  return pb;
}

let baseEnv: Record<string, string>;
let pbPort: number;
let nginxPort: number;
/** a manager's company, job and question, and a candidate who agreed (made through the proxy) */
let world: { manager: PocketBase; job: RecordModel; question: RecordModel; candidate: RecordModel; key: string };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "screenroom-production-"));
  pbPort = await freePort();
  nginxPort = await freePort();
  proxyUrl = `http://127.0.0.1:${nginxPort}`;
  // the replica's bucket; the files stay on local disk, as by default
  s3 = await startS3Server({ port: await freePort(), dataDir: join(work, "s3") });
  await createBucket(s3);
  baseEnv = {
    ...UNTHROTTLED,
    APP_URL: proxyUrl,
    SUPERUSER_EMAIL: OPERATOR.email,
    SUPERUSER_PASSWORD: OPERATOR.password,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(inject("mailSmtpPort")),
    SMTP_TLS: "false",
    MAIL_FROM: "interviews@screenroom.test",
    MAIL_FROM_NAME: "Screenroom Interviews",
    PB_HTTP: `127.0.0.1:${pbPort}`,
    PB_DATA_DIR: join(work, "data"),
    BACKUPS_CRON: "30 3 * * *",
    BACKUPS_MAX_KEEP: "4",
    TRUSTED_PROXY_HEADERS: "X-Real-IP",
    WORKER_ID: "production-smoke-worker",
    // an empty value means the default, as in .env.example
    TRANSCRIBE_URL: "",
    REPLICA_URL: `s3://${s3.bucket}/production-db`,
    REPLICA_ENDPOINT: s3.url,
    REPLICA_REGION: s3.region,
    REPLICA_ACCESS_KEY: s3.accessKey,
    REPLICA_SECRET: s3.secret,
    REPLICA_METRICS_ADDR: "off",
  };
  envFile(join(work, "screenroom.env"), baseEnv);
  served = await serve(["--env-file", join(work, "screenroom.env")], [/Screenroom is serving at/, /\[worker\] connected to/, /Litestream is replicating the databases/]);
  nginx = await startNginx(pbPort, nginxPort);

  // a manager with a job and a video question, and a candidate who agreed, all through the proxy
  const operator = await asOperator(proxyUrl);
  const email = `manager-${randomId()}@screenroom.test`;
  await operator.collection("users").create({ email, password: MANAGER_PASSWORD, passwordConfirm: MANAGER_PASSWORD, firstName: "Ada", lastName: "Lovelace", verified: true });
  const manager = sdk(proxyUrl);
  await manager.collection("users").authWithPassword(email, MANAGER_PASSWORD);
  const company = await manager.collection("companies").create({ name: "Production Ltd", website: "https://production.example.com", logo: pngFile() });
  const question = await manager.collection("questions").create({ company: company.id, title: "Tell us about you", description: "One minute", timeout: 60, canPreview: true });
  await manager.collection("video_questions").create({ question: question.id, takes: 2 });
  const job = await manager.collection("jobs").create({ company: company.id, title: "Backed-up job", description: "Help our customers", location: "Remote", questions: [question.id] });
  const candidate = await manager.collection("candidates").create({ job: job.id, email: `candidate-${randomId()}@screenroom.test` });
  const key = (await operator.collection("candidates").getOne(candidate.id)).secret as string;
  await sdk(proxyUrl, { "X-Candidate-Key": key }).send(`/api/screenroom/interviews/${encodeURIComponent(key)}/consent`, { method: "POST" });
  world = { manager, job, question, candidate, key };
}, 300_000);

afterAll(async () => {
  if (nginx) await stopChild(nginx);
  if (served) await stopChild(served.child);
  await s3?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("npm run serve behind nginx", () => {
  it("serves the built app from its own origin with the security headers, and its hashed assets", async () => {
    const page = await fetch(`${proxyUrl}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<div id="root">/);
    const csp = page.headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toMatch(/unsafe-inline/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    // an SPA route is the same page with the same policy
    const route = await fetch(`${proxyUrl}/candidates/some-key`);
    expect(route.status).toBe(200);
    expect(route.headers.get("content-security-policy")).toBe(csp);

    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const script = await fetch(`${proxyUrl}${asset}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("cache-control")).toMatch(/immutable/);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
  });

  it("answers the API, without PocketBase's development log", async () => {
    const health = await fetch(`${proxyUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { code: number }).code).toBe(200);
    await (await asOperator(proxyUrl)).collection("jobs").getList(1, 5);
    // dev mode prints every SQL statement; production prints none
    expect(served.output()).not.toMatch(/\bSELECT\b/);
    expect(served.output()).toMatch(/Server started at http:\/\/127\.0\.0\.1:/);
  });

  it("applies the environment to PocketBase's settings: mail, sender, backups, the proxy header", async () => {
    const settings = (await (await asOperator(proxyUrl)).settings.getAll()) as Record<string, Record<string, unknown>>;
    expect(settings.meta).toMatchObject({ appURL: proxyUrl, senderAddress: "interviews@screenroom.test", senderName: "Screenroom Interviews" });
    expect(settings.smtp).toMatchObject({ enabled: true, host: "127.0.0.1", port: inject("mailSmtpPort"), tls: false });
    expect(settings.backups).toMatchObject({ cron: "30 3 * * *", cronMaxKeep: 4 });
    expect(settings.trustedProxy).toMatchObject({ headers: ["X-Real-IP"] });
  });

  it("passes a 16 MB staged part through the proxy", async () => {
    const candidatePb = sdk(proxyUrl, { "X-Candidate-Key": world.key });
    // a real recording's first bytes, padded to the largest part the server takes (PART_MAX_BYTES)
    const part = new Uint8Array(16 * MB);
    part.set(fixture("answer.webm"));
    const take = randomId();
    const stored = await putPart(candidatePb, take, 0, part, world.question.id, { ms: "1000" });
    expect(stored).toMatchObject({ take, offset: 0, size: 16 * MB });
    await candidatePb.send(`/api/screenroom/takes/${take}`, { method: "DELETE" });
  });

  it("holds a realtime stream open through the proxy and delivers a record's change on it", async () => {
    const controller = new AbortController();
    const stream = await fetch(`${proxyUrl}/api/realtime`, { signal: controller.signal, headers: { Accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; got:\n${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return pattern.exec(text)!;
    };
    try {
      const clientId = JSON.parse((await readUntil(/event:PB_CONNECT\s*\ndata:(\{[^\n]*\})/))[1]!).clientId as string;
      await fetch(`${proxyUrl}/api/realtime`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: world.manager.authStore.token },
        body: JSON.stringify({ clientId, subscriptions: [`jobs/${world.job.id}`] }),
      }).then((res) => expect(res.status).toBe(204));
      await world.manager.collection("jobs").update(world.job.id, { location: "Hybrid" });
      const event = await readUntil(new RegExp(`event:jobs/${world.job.id}\\s*\\ndata:(\\{[^\\n]*\\})`));
      expect(JSON.parse(event[1]!)).toMatchObject({ action: "update", record: { id: world.job.id, location: "Hybrid" } });
    } finally {
      controller.abort();
    }
  });

  it("runs Litestream beside PocketBase: both databases reach the replica, and it says that files on local disk do not", async () => {
    expect(served.output()).toContain(`Litestream is replicating the databases to s3://${s3!.bucket}/production-db.`);
    expect(served.output()).toMatch(/Uploaded files are in the data dir and are not replicated/);
    const socket = join(baseEnv.PB_DATA_DIR!, "litestream", "control.sock");
    const deadline = Date.now() + 30_000;
    let databases = await listDatabases(socket);
    while (databases.filter((db) => db.last_sync_at).length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      databases = await listDatabases(socket);
    }
    expect(databases.map((db) => [db.path, db.status, Boolean(db.last_sync_at)]).sort()).toEqual([
      [join(baseEnv.PB_DATA_DIR!, "auxiliary.db"), "replicating", true],
      [join(baseEnv.PB_DATA_DIR!, "data.db"), "replicating", true],
    ]);
  });

  it("runs the media worker: an answer sent through the proxy is transcribed", async () => {
    expect(served.output()).toMatch(/\[worker\] connected to http:\/\/127\.0\.0\.1:\d+ as ops@screenroom\.test \(worker production-smoke-worker/);
    const candidatePb = sdk(proxyUrl, { "X-Candidate-Key": world.key });
    const form = new FormData();
    const id = randomId();
    form.append("id", id);
    form.append("candidate", world.candidate.id);
    form.append("question", world.question.id);
    const file = webmFile();
    form.append("file", file, file.name);
    const res = await candidatePb.send<{ record: RecordModel }>("/api/screenroom/answers", { method: "POST", body: form });
    const operator = await asOperator(proxyUrl);
    let status = "";
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      status = (await operator.collection("video_answers").getOne(res.record.id)).transcriptStatus as string;
      if (status !== "pending") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe("done");
  });
});

describe("deployment examples", () => {
  it("serve refuses to start without the required variables, naming each", async () => {
    const incomplete = Object.fromEntries(Object.entries(baseEnv).filter(([name]) => name !== "APP_URL" && name !== "MAIL_FROM"));
    envFile(join(work, "incomplete.env"), incomplete);
    const result = spawnSync(process.execPath, [join(root, "scripts", "serve.mjs"), "--env-file", join(work, "incomplete.env")], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/These variables are not set \(see \.env\.example\):\n\s+APP_URL .*\n\s+MAIL_FROM /);
  });

  it.skipIf(!has("systemd-analyze"))("the systemd units pass systemd-analyze verify", () => {
    const dir = join(root, "deploy", "systemd");
    const units = readdirSync(dir).filter((name) => name.endsWith(".service"));
    expect(units.sort()).toEqual(["screenroom-litestream.service", "screenroom-pocketbase.service", "screenroom-worker.service"]);
    const result = spawnSync("systemd-analyze", ["verify", ...units.map((unit) => join(dir, unit))], { encoding: "utf8" });
    expect(`${result.stdout}${result.stderr}`.trim()).toBe("");
    expect(result.status).toBe(0);
  });

  it("the proxy snippet lets the largest request in and outlasts PocketBase's idle realtime connection", () => {
    const snippet = readFileSync(join(root, "deploy", "nginx", "screenroom-proxy.conf"), "utf8");
    const limits = readFileSync(join(root, "server", "internal", "platform", "limits.go"), "utf8");
    const mb = (name: string) => Number(new RegExp(`^\\s*${name}\\s*= (\\d+) \\* 1024 \\* 1024$`, "m").exec(limits)?.[1]);
    const bodyMb = Number(/^client_max_body_size (\d+)m;/m.exec(snippet)?.[1]);
    // a whole-file answer: the video field's size plus PocketBase's allowance for the rest of the form
    expect(bodyMb).toBeGreaterThanOrEqual(mb("VideoMaxBytes") + mb("BodyBaseBytes"));
    expect(bodyMb).toBeGreaterThanOrEqual(mb("PartMaxBytes"));
    // PocketBase ends an idle realtime connection after 5 minutes; the proxy must not cut it first
    const read = /^proxy_read_timeout (\d+)(s|m|h)?;/m.exec(snippet);
    const seconds = Number(read?.[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[read?.[2] ?? "s"]!;
    expect(seconds).toBeGreaterThan(300);
    expect(snippet).toMatch(/^proxy_buffering off;/m);
  });

  it("the site's two halves pass nginx -t (with a throwaway certificate in place of certbot's)", () => {
    const dir = join(work, "nginx-check");
    mkdirSync(join(dir, "snippets"), { recursive: true });
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=interviews.example.com", "-days", "1", "-keyout", key, "-out", cert], { encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    // the plain-HTTP half alone first (as installed before certbot), then both
    const http = readFileSync(join(root, "deploy", "nginx", "screenroom-http.conf"), "utf8");
    const https = readFileSync(join(root, "deploy", "nginx", "screenroom-https.conf"), "utf8")
      .replace(/\/etc\/letsencrypt\/live\/interviews\.example\.com\/fullchain\.pem/g, cert)
      .replace(/\/etc\/letsencrypt\/live\/interviews\.example\.com\/privkey\.pem/g, key);
    writeFileSync(join(dir, "snippets", "screenroom-proxy.conf"), readFileSync(join(root, "deploy", "nginx", "screenroom-proxy.conf")));
    for (const site of [http, `${http}\n${https}`]) {
      writeFileSync(join(dir, "site.conf"), site);
      writeFileSync(
        join(dir, "nginx.conf"),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/site.conf;\n}\n`,
      );
      const checked = spawnSync(nginxBinary, ["-t", "-p", dir, "-c", join(dir, "nginx.conf")], { encoding: "utf8" });
      expect(checked.stderr).toMatch(/test is successful/);
      expect(checked.status).toBe(0);
    }
  });
});

describe("backups", () => {
  let restored: Served | undefined;
  afterAll(async () => {
    if (restored) await stopChild(restored.child);
  });

  it("a backup restored into a fresh data dir serves the backed-up state, the answer's video included", async () => {
    const operator = await asOperator(proxyUrl);
    const candidate = await world.manager.collection("candidates").create({ job: world.job.id, email: `backed-up-${randomId()}@screenroom.test` });
    const key = (await operator.collection("candidates").getOne(candidate.id)).secret as string;
    const asThisCandidate = sdk(proxyUrl, { "X-Candidate-Key": key });
    await asThisCandidate.send(`/api/screenroom/interviews/${encodeURIComponent(key)}/consent`, { method: "POST" });
    const form = new FormData();
    form.append("id", randomId());
    form.append("candidate", candidate.id);
    form.append("question", world.question.id);
    const file = webmFile();
    form.append("file", file, file.name);
    const { record } = await asThisCandidate.send<{ record: RecordModel }>("/api/screenroom/answers", { method: "POST", body: form });
    // the worker may replace the file with its seekable copy: back up once it is done with the answer
    const deadline = Date.now() + 90_000;
    let video = await operator.collection("video_answers").getOne(record.id);
    while (video.transcriptStatus === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      video = await operator.collection("video_answers").getOne(record.id);
    }
    const download = async (pb: PocketBase, target: RecordModel) =>
      Buffer.from(await (await fetch(pb.files.getURL(target, target.file as string, { token: await pb.files.getToken() }))).arrayBuffer());
    const videoBefore = await download(world.manager, video);
    expect(videoBefore.length).toBeGreaterThan(1000);

    // 1. the backup, as the dashboard's "Backups" button or the cron makes it, downloaded off the server
    await operator.backups.create("before-change.zip");
    const zip = Buffer.from(await (await fetch(operator.backups.getDownloadURL(await operator.files.getToken(), "before-change.zip"))).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe("PK");
    writeFileSync(join(work, "before-change.zip"), zip);

    // 2. data changes after it: the job renamed, the candidate and its answer deleted
    await world.manager.collection("jobs").update(world.job.id, { title: "Renamed after the backup" });
    await world.manager.collection("candidates").delete(candidate.id, { query: { deleteAnswers: "true" } });
    expect(await operator.collection("video_answers").getOne(record.id).then(() => "found", () => "gone")).toBe("gone");

    // 3. restore as README says: unzip into a fresh data dir, point PB_DATA_DIR at it, start
    const dataDir = join(work, "restored");
    const unzipped = spawnSync("unzip", ["-q", join(work, "before-change.zip"), "-d", dataDir], { encoding: "utf8" });
    expect(unzipped.status, unzipped.stderr).toBe(0);
    // made while Litestream ran: its folder (metadata, control socket) is left out
    expect(existsSync(join(dataDir, "data.db"))).toBe(true);
    expect(existsSync(join(dataDir, "litestream"))).toBe(false);
    const port = await freePort();
    // a new superuser password in the env file: the restored instance takes it on start (the backup has the old one)
    const newPassword = "ops-password-after-restore";
    envFile(join(work, "restored.env"), { ...baseEnv, PB_HTTP: `127.0.0.1:${port}`, PB_DATA_DIR: dataDir, SUPERUSER_PASSWORD: newPassword });
    restored = await serve(["--env-file", join(work, "restored.env"), "--only=pocketbase", "--no-build"], [/PocketBase is serving at/]);
    const url = `http://127.0.0.1:${port}`;

    // 4. the backed-up state: the job's old title, the candidate, the answer and its video, for the same accounts
    const manager = sdk(url);
    await manager.collection("users").authWithPassword(world.manager.authStore.record!.email as string, MANAGER_PASSWORD);
    expect((await manager.collection("jobs").getOne(world.job.id)).title).toBe("Backed-up job");
    expect((await manager.collection("candidates").getOne(candidate.id)).email).toBe(candidate.email);
    const restoredVideo = await manager.collection("video_answers").getOne(record.id);
    expect(restoredVideo.file).toBe(video.file);
    expect((await download(manager, restoredVideo)).equals(videoBefore)).toBe(true);
    await sdk(url).collection("_superusers").authWithPassword(OPERATOR.email, newPassword);
    expect(restored.output()).toMatch(/does not sign in with SUPERUSER_PASSWORD: creating or updating that superuser/);
    // the app itself is served from the restored instance too
    expect((await fetch(`${url}/`)).headers.get("content-security-policy")).toMatch(/sha256-/);
  });
});
