// Issue 18 point 1: invites from a CSV file (POST /api/screenroom/jobs/{id}/invites/bulk) and the mail queue the
// Go main works (server/internal/mail/mail_queue.go). Real PocketBase, real MailDev.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type PocketBase from "pocketbase";
import { client, createCompany, createJob, createQuestion, mailUrl, signUp, statusOf, superuser, uniqueEmail, useOwnServer } from "./helpers";
import { freePort } from "../scripts/lib/pocketbase.mjs";

interface Row {
  email: string;
  firstName?: string;
  lastName?: string;
  deadline?: string;
}
interface RowResult {
  status: "created" | "skipped" | "failed";
  reason?: string;
  candidate?: string;
}
interface BulkResponse {
  results: RowResult[];
  created: number;
  skipped: number;
  failed: number;
}

const bulk = (pb: PocketBase, jobId: string, importId: string, rows: Row[]) =>
  pb.send<BulkResponse>(`/api/screenroom/jobs/${jobId}/invites/bulk`, { method: "POST", body: { importId, rows } });

/** Sends `rows` as the SPA does: chunks of 100 under one import id; the results in row order. */
async function importRows(pb: PocketBase, jobId: string, rows: Row[], importId = `imp${Math.random().toString(36).slice(2, 12)}`) {
  const results: RowResult[] = [];
  for (let i = 0; i < rows.length; i += 100) results.push(...(await bulk(pb, jobId, importId, rows.slice(i, i + 100))).results);
  return results;
}

async function managerWithJob(label: string) {
  const manager = await signUp({ email: uniqueEmail(label) });
  const company = await createCompany(manager.pb, `${label} Inc`);
  const { question } = await createQuestion(manager.pb, company.id, "text");
  const job = await createJob(manager.pb, company.id, [question.id]);
  return { manager, company, job };
}

/** Every e-mail MailDev holds whose recipient contains `tag`: its recipients' addresses. */
async function recipientsWith(tag: string): Promise<string[]> {
  const res = await fetch(`${mailUrl()}/email`);
  const all = (await res.json()) as { to: { address: string }[] }[];
  return all.flatMap((m) => m.to.map((t) => t.address.toLowerCase())).filter((a) => a.includes(tag));
}

const countReasons = (results: RowResult[]) =>
  results.reduce<Record<string, number>>((acc, r) => {
    const key = r.status === "created" ? "created" : `${r.status}:${r.reason}`;
    acc[key] = (acc[key] ?? 0) + 1;
    return acc;
  }, {});

describe("a 1,000-row import on the shared server", () => {
  it("creates 980 candidates and sends 980 e-mails once each from 1,000 rows with 20 bad ones; the same rows again invite nobody", async () => {
    const { manager, job } = await managerWithJob("csv-bulk");
    const tag = `csvbulk${Date.now().toString(36)}`;
    const rows: Row[] = [];
    let n = 0;
    const good = () => ({ email: `${tag}-${(n += 1)}@screenroom.test`, firstName: `First${n}`, lastName: "Lastname" });
    const bad: Row[] = [
      { email: "not-an-email" },
      { email: "" },
      { email: "two@@screenroom.test" },
      { email: "spaced out@screenroom.test" },
      { email: "nodomain@" },
      { email: "@screenroom.test" },
      { email: `${tag}-nodot@screenroom` },
      { email: `${tag}-x@screenroom.test`, deadline: "2020-01-01" }, // a deadline in the past
      { email: `${tag}-y@screenroom.test`, deadline: "not a date" },
      { email: `${tag}-z@screenroom.test`, deadline: "2019-05-05T10:00:00Z" },
    ];
    // 10 invalid rows spread through the file, 10 duplicates (another case, spaces) right after their first row
    while (rows.length < 1000) {
      const i = rows.length;
      if (i % 100 === 50 && bad.length) rows.push(bad.shift()!);
      else if (i % 100 === 20 && rows.filter((r) => r.email.startsWith(" ")).length < 10) {
        rows.push({ email: ` ${rows[i - 1]!.email.toUpperCase()} ` });
      } else rows.push(good());
    }
    expect(rows).toHaveLength(1000);

    const results = await importRows(manager.pb, job.id, rows);
    expect(results).toHaveLength(1000);
    expect(countReasons(results)).toEqual({
      created: 980,
      "skipped:invalid_email": 7,
      "skipped:duplicate_in_file": 10,
      "skipped:past_deadline": 2,
      "skipped:invalid_deadline": 1,
    });
    const list = await manager.pb.collection("candidates").getList(1, 1, { filter: `job = "${job.id}"` });
    expect(list.totalItems).toBe(980);
    const named = await manager.pb.collection("candidates").getFirstListItem(`job = "${job.id}" && email = "${tag}-1@screenroom.test"`);
    expect([named.firstName, named.lastName]).toEqual(["First1", "Lastname"]);

    // the e-mails go out at the queue's pace: wait until MailDev holds all 980, one per address
    await expect.poll(async () => (await recipientsWith(tag)).length, { timeout: 280_000, interval: 2000 }).toBeGreaterThanOrEqual(980);
    const recipients = await recipientsWith(tag);
    expect(recipients).toHaveLength(980);
    expect(new Set(recipients).size).toBe(980);

    // the same file again (a new import): nobody invited twice, no e-mail queued
    const again = await importRows(manager.pb, job.id, rows);
    expect(countReasons(again)).toEqual({
      "skipped:already_invited": 980,
      "skipped:invalid_email": 7,
      "skipped:duplicate_in_file": 10,
      "skipped:past_deadline": 2,
      "skipped:invalid_deadline": 1,
    });
    expect((await manager.pb.collection("candidates").getList(1, 1, { filter: `job = "${job.id}"` })).totalItems).toBe(980);
    const su = await superuser();
    const queued = await su.collection("mail_queue").getList(1, 1, { filter: `to ~ "${tag}"` });
    expect(queued.totalItems).toBe(980);
  }, 300_000); // the e-mails leave at the queue's pace, one SMTP session each

  it("refuses an import into another company's job, and anonymous imports", async () => {
    const owner = await managerWithJob("csv-owner");
    const outsider = await managerWithJob("csv-outsider");
    const email = uniqueEmail("csv-foreign");
    expect(await statusOf(() => bulk(outsider.manager.pb, owner.job.id, "foreign-import-1", [{ email }]))).toBe(404);
    expect(await statusOf(() => bulk(client(), owner.job.id, "anon-import-1", [{ email }]))).toBe(401);
    const su = await superuser();
    expect((await su.collection("candidates").getList(1, 1, { filter: `email = "${email}"` })).totalItems).toBe(0);
  });

  it("answers 400 to an import over 1,000 addresses, and to a request without an import id", async () => {
    const { manager, job } = await managerWithJob("csv-limit");
    const tag = `csvlimit${Date.now().toString(36)}`;
    // every row counts towards the 1,000, a bad one too (so these create nothing and queue no e-mail)
    const rows = Array.from({ length: 1001 }, (_, i) => ({ email: `${tag}-${i}@nowhere` }));
    const valid = (i: number) => ({ email: `${tag}-ok${i}@screenroom.test` });
    // 1,001 in one request
    expect(await statusOf(() => bulk(manager.pb, job.id, "limit-import-1", rows))).toBe(400);
    // or 1,000 then one more under the same import
    expect((await bulk(manager.pb, job.id, "limit-import-2", [...rows.slice(0, 999), valid(1)])).created).toBe(1);
    expect(await statusOf(() => bulk(manager.pb, job.id, "limit-import-2", [valid(2)]))).toBe(400);
    // the rows of an import sent again (a retry) are no new addresses
    expect((await bulk(manager.pb, job.id, "limit-import-2", [valid(1), ...rows.slice(0, 10)])).skipped).toBe(11);
    expect(await statusOf(() => bulk(manager.pb, job.id, "", [valid(3)]))).toBe(400);
    expect((await manager.pb.collection("candidates").getList(1, 1, { filter: `job = "${job.id}"` })).totalItems).toBe(1);
  });
});

describe("the invite rate limit counts an import as one action", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ RATE_LIMIT_INVITES: "3/600" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lets a manager send a 300-row import in three requests, a single invite and another import, then refuses a third import", async () => {
    const { manager, job } = await managerWithJob("csv-throttle");
    const tag = `csvthr${Date.now().toString(36)}`;
    const rows = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ email: `${tag}-${prefix}${i}@screenroom.test` }));
    // import A: 3 requests, one action
    const a = rows("a", 300);
    for (let i = 0; i < 300; i += 100) expect((await bulk(manager.pb, job.id, "throttle-import-a", a.slice(i, i + 100))).created).toBe(100);
    // a single invite: the second action
    await manager.pb.collection("candidates").create({ job: job.id, email: `${tag}-single@screenroom.test` });
    // import B: the third
    expect((await bulk(manager.pb, job.id, "throttle-import-b", rows("b", 5))).created).toBe(5);
    // import C: refused, nothing created
    expect(await statusOf(() => bulk(manager.pb, job.id, "throttle-import-c", rows("c", 5)))).toBe(429);
    // nor a single invite
    expect(await statusOf(() => manager.pb.collection("candidates").create({ job: job.id, email: `${tag}-single2@screenroom.test` }))).toBe(429);
    // a further request of an import already counted goes on (a retry of the rest)
    expect((await bulk(manager.pb, job.id, "throttle-import-a", rows("a", 301).slice(300))).created).toBe(1);
    expect((await manager.pb.collection("candidates").getList(1, 1, { filter: `job = "${job.id}"` })).totalItems).toBe(307);
  });
});

/**
 * A TCP relay in front of MailDev's SMTP port: while `dropping`, it closes every connection at once (the mail
 * server unreachable, an SMTP error for PocketBase's mail client); otherwise it relays to MailDev.
 */
async function smtpRelay(target: number) {
  const port = await freePort();
  const state = { dropping: true, connections: 0 };
  const server = net.createServer((socket) => {
    state.connections += 1;
    if (state.dropping) {
      socket.destroy();
      return;
    }
    const upstream = net.connect(target, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("the mail queue retries SMTP errors", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  let relay: Awaited<ReturnType<typeof smtpRelay>>;
  beforeAll(async () => {
    relay = await smtpRelay(inject("mailSmtpPort"));
    server = await useOwnServer({
      SMTP_PORT: String(relay.port),
      MAIL_QUEUE_RETRY_SECONDS: "1",
      MAIL_QUEUE_MAX_ATTEMPTS: "3",
      MAIL_QUEUE_PER_SECOND: "50",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await relay?.close();
  });

  it("gives up after the last attempt, and sends a mail once the mail server answers again", async () => {
    const { manager, job } = await managerWithJob("csv-smtp");
    const su = await superuser();
    const queueOf = (email: string) => su.collection("mail_queue").getFirstListItem(`to = "${email}"`);

    // the mail server unreachable: three attempts, then failed
    const lost = uniqueEmail("csv-smtp-lost");
    expect((await bulk(manager.pb, job.id, "smtp-import-1", [{ email: lost }])).created).toBe(1);
    await expect.poll(async () => (await queueOf(lost)).status, { timeout: 60_000 }).toBe("failed");
    const failed = await queueOf(lost);
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).not.toBe("");
    expect(failed.sentAt).toBe("");

    // another, tried at least once while unreachable; then the mail server is back: the retry delivers it
    const late = uniqueEmail("csv-smtp-late");
    expect((await bulk(manager.pb, job.id, "smtp-import-2", [{ email: late }])).created).toBe(1);
    await expect.poll(async () => (await queueOf(late)).attempts, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    expect((await queueOf(late)).status).toBe("pending");
    relay.state.dropping = false;
    await expect.poll(async () => (await queueOf(late)).status, { timeout: 60_000 }).toBe("sent");
    const sent = await queueOf(late);
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(sent.sentAt).not.toBe("");
    await expect.poll(async () => (await recipientsWith(late)).length, { timeout: 30_000 }).toBe(1);
    // the given-up mail stays given up
    expect((await queueOf(lost)).status).toBe("failed");
    expect(await recipientsWith(lost)).toEqual([]);
  });
});

// MAIL_QUEUE_HOLD (server/internal/mail/mail_queue.go): the benchmark's server keeps its seeded invitations' e-mails
// instead of retrying them against a mail server that isn't there. Held, a queued e-mail stays pending and untried; a
// start without the hold sends it.
describe("the mail queue held", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "screenroom-mail-hold-"));
  let server: Awaited<ReturnType<typeof useOwnServer>> | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps queued e-mails pending while held, and sends them once started without the hold", async () => {
    server = await useOwnServer({ MAIL_QUEUE_HOLD: "1" }, { dataDir });
    const { manager, job } = await managerWithJob("mail-hold");
    const invited = uniqueEmail("mail-hold-invited");
    expect((await bulk(manager.pb, job.id, "hold-import", [{ email: invited }])).created).toBe(1);
    const queueOf = async () => (await superuser()).collection("mail_queue").getFirstListItem(`to = "${invited}"`);
    expect((await queueOf()).status).toBe("pending");
    // an unheld queue (200 a second here) would have sent it many times over in this wait
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const held = await queueOf();
    expect([held.status, held.attempts, held.sentAt]).toEqual(["pending", 0, ""]);
    expect(await recipientsWith(invited)).toEqual([]);

    await server.stop();
    server = await useOwnServer({}, { dataDir });
    await expect.poll(async () => (await queueOf()).status, { timeout: 60_000 }).toBe("sent");
    await expect.poll(() => recipientsWith(invited), { timeout: 30_000 }).toEqual([invited]);
  });
});
