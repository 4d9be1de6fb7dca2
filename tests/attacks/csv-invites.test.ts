// Issue 18 point 1, as an attacker: the bulk invite route (server/internal/candidates) and the outgoing
// mail queue (mail_queue, worked by server/internal/mail/mail_queue.go). The queue holds every candidate's address and
// interview link: nobody but superusers reaches it through any API (records, filters of other collections, batch,
// realtime). The route creates only what a single invite may: the manager's own job, the server's key, no server field.
import { describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { asCandidate, randomId, statusOf, superuser, uniqueEmail, world } from "../helpers";
import { subscribe } from "./realtime";

const bulk = (pb: PocketBase, jobId: string, rows: Record<string, unknown>[], importId = `atk-${randomId()}`) =>
  pb.send<{ results: { status: string; reason?: string; candidate?: string }[] }>(`/api/screenroom/jobs/${jobId}/invites/bulk`, {
    method: "POST",
    body: { importId, rows },
  });

describe("the bulk invite route", () => {
  it("creates a candidate in the route's job only, with the server's key and none of the server's fields a row sends", async () => {
    const a = await world("csv-atk-a");
    const b = await world("csv-atk-b");
    const email = uniqueEmail("csv-atk-fields");
    const forged = "A".repeat(40);
    const { results } = await bulk(a.manager.pb, a.job.id, [
      {
        email,
        job: b.job.id,
        secret: forged,
        consentedAt: "2026-01-01 00:00:00.000Z",
        status: "completed",
        withdrawnAt: "2026-01-01 00:00:00.000Z",
        completionMailedAt: "2026-01-01 00:00:00.000Z",
        averageRating: 5,
      },
    ]);
    expect(results[0]!.status).toBe("created");
    const su = await superuser();
    const stored = await su.collection("candidates").getOne(results[0]!.candidate!);
    expect(stored.job).toBe(a.job.id);
    expect(stored.secret).not.toBe(forged);
    expect(stored.secret).toMatch(/^[A-Za-z0-9]{40}$/);
    expect([stored.consentedAt, stored.withdrawnAt, stored.completionMailedAt]).toEqual(["", "", ""]);
    expect(stored.status).not.toBe("completed");
    expect(stored.averageRating).toBe(0);
    // nothing in B's job
    expect((await su.collection("candidates").getList(1, 1, { filter: su.filter("email = {:e}", { e: email }) })).totalItems).toBe(1);
  });

  it("refuses another company's job, and a candidate's key, creating nothing", async () => {
    const a = await world("csv-atk-c");
    const b = await world("csv-atk-d");
    const email = uniqueEmail("csv-atk-foreign");
    expect(await statusOf(() => bulk(b.manager.pb, a.job.id, [{ email }]))).toBe(404);
    expect(await statusOf(() => bulk(asCandidate(a.candidate.id), a.job.id, [{ email }]))).toBe(401);
    const su = await superuser();
    expect((await su.collection("candidates").getList(1, 1, { filter: su.filter("email = {:e}", { e: email }) })).totalItems).toBe(0);
  });

  it("escapes a row's name in the interview e-mail", async () => {
    const a = await world("csv-atk-e");
    const email = uniqueEmail("csv-atk-html");
    await bulk(a.manager.pb, a.job.id, [{ email, firstName: '<img src=x onerror="alert(1)">' }]);
    const su = await superuser();
    const mail = await su.collection("mail_queue").getFirstListItem(su.filter("to = {:to}", { to: email }));
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});

describe("the mail queue", () => {
  it("is refused to managers and candidates through the records API, filters included", async () => {
    const a = await world("csv-atk-q");
    const su = await superuser();
    const queued = await su.collection("mail_queue").getFirstListItem(su.filter("to = {:to}", { to: a.candidate.email }));
    for (const pb of [a.manager.pb, asCandidate(a.candidate.id)]) {
      expect(await statusOf(() => pb.collection("mail_queue").getList(1, 50))).toBe(403);
      expect(await statusOf(() => pb.collection("mail_queue").getList(1, 50, { filter: `to ~ "@"` }))).toBe(403);
      expect([403, 404]).toContain(await statusOf(() => pb.collection("mail_queue").getOne(queued.id)));
      expect([400, 403]).toContain(await statusOf(() => pb.collection("mail_queue").create({ to: "x@example.com", subject: "s", status: "pending" })));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("mail_queue").update(queued.id, { to: "attacker@example.com" })));
      expect([403, 404]).toContain(await statusOf(() => pb.collection("mail_queue").delete(queued.id)));
    }
    const after = await su.collection("mail_queue").getOne(queued.id);
    expect(after.to).toBe(a.candidate.email);
  });

  it("answers a filter guessing at queued mail through @collection the same, right guess or wrong", async () => {
    const a = await world("csv-atk-r");
    const su = await superuser();
    const queued = await su.collection("mail_queue").getFirstListItem(su.filter("to = {:to}", { to: a.candidate.email }));
    const link = /candidates\/([A-Za-z0-9]{40})/.exec(queued.html as string)![1]!;
    const guess = async (prefix: string) => {
      const filter = a.manager.pb.filter("@collection.mail_queue.html ~ {:p}", { p: `candidates/${prefix}` });
      try {
        const res = await a.manager.pb.collection("candidates").getList(1, 50, { filter });
        return { status: 200, total: res.totalItems };
      } catch (err) {
        return { status: (err as { status: number }).status, total: -1 };
      }
    };
    const right = await guess(link.slice(0, 3));
    const wrong = await guess(link.slice(0, 2) + (link[2] === "z" ? "y" : "z"));
    expect(right).toEqual(wrong);
  });

  it("is refused through the batch API", async () => {
    const a = await world("csv-atk-s");
    const su = await superuser();
    const queued = await su.collection("mail_queue").getFirstListItem(su.filter("to = {:to}", { to: a.candidate.email }));
    const batch = a.manager.pb.createBatch();
    batch.collection("mail_queue").create({ to: "attacker@example.com", subject: "s", html: "h", status: "pending" });
    batch.collection("mail_queue").update(queued.id, { to: "attacker@example.com" });
    expect(await statusOf(() => batch.send())).toBeGreaterThanOrEqual(400);
    expect((await su.collection("mail_queue").getList(1, 1, { filter: `to = "attacker@example.com"` })).totalItems).toBe(0);
    expect((await su.collection("mail_queue").getOne(queued.id)).to).toBe(a.candidate.email);
  });

  it("sends no realtime event of queued mail to a manager who subscribes to it", async () => {
    const a = await world("csv-atk-t");
    const sub = await subscribe(a.manager.pb.authStore.token, ["mail_queue/*", "candidates/*"]);
    // an invite queues a mail; a second invite afterwards is the marker: its event comes after any of the first's
    await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("csv-atk-rt1") });
    const su = await superuser();
    const first = uniqueEmail("csv-atk-rt2");
    await bulk(a.manager.pb, a.job.id, [{ email: first }]);
    await expect.poll(async () => (await su.collection("mail_queue").getList(1, 1, { filter: su.filter("to = {:to}", { to: first }) })).totalItems).toBe(1);
    const marker = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("csv-atk-rt3") });
    const events = (await sub.until(marker.id)).map((e) => `${e.event} ${e.data}`);
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const event of events) expect(event).not.toContain("mail_queue");
  });
});
