// Issue 16 point 4: the owner removes a member from the team page, and a manager resends a candidate's invitation.
// What the server enforces: only the owner removes, nobody removes the owner (server/internal/companies, issue 13,
// covered in company-owner.test.ts), a removed manager loses access at once, with the session they still hold; and
// POST /api/screenroom/candidates/{id}/resend-invite (server/internal/candidates) mails only for the job's company's
// managers, within the address's e-mail budget (server/internal/platform/throttle.go).
import { EventSource } from "eventsource";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  asCandidate,
  createCompany,
  createJob,
  createQuestion,
  errorOf,
  mailsTo,
  signUp,
  statusOf,
  superuser,
  uniqueEmail,
  useOwnServer,
  waitForMail,
  world,
} from "../helpers";
import { coManagerOf, expectFieldError, storedOrNull } from "../support";
import type PocketBase from "pocketbase";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const resend = (pb: PocketBase, candidateId: string) =>
  pb.send<{ sentAt: string }>(`/api/screenroom/candidates/${encodeURIComponent(candidateId)}/resend-invite`, { method: "POST" });

describe("removing a member", () => {
  it("takes the removed manager's access away at once, with the session they still hold", async () => {
    const w = await world("removed");
    const co = await coManagerOf(w, "removed-co");
    // before: the co-manager works in the company
    expect((await co.pb.collection("companies").getOne(w.company.id)).id).toBe(w.company.id);
    expect(await co.pb.collection("candidates").getFullList()).toHaveLength(1);

    await w.manager.pb.collection("companies").update(w.company.id, { "managers-": co.user.id });

    // the same token, the very next requests: nothing of the company is reachable any more
    expect(await statusOf(() => co.pb.collection("companies").getOne(w.company.id))).toBe(404);
    expect(await co.pb.collection("companies").getFullList()).toEqual([]);
    expect(await co.pb.collection("jobs").getFullList()).toEqual([]);
    expect(await co.pb.collection("candidates").getFullList()).toEqual([]);
    expect(await co.pb.collection("questions").getFullList()).toEqual([]);
    expect(await statusOf(() => co.pb.collection("jobs").update(w.job.id, { title: "Taken over" }))).toBe(404);
    expect(await statusOf(() => co.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("removed-invites") }))).toBe(400);
    expect(await statusOf(() => co.pb.collection("manager_invites").create({ company: w.company.id, email: uniqueEmail("removed-mi") }))).toBe(400);
    expect(await statusOf(() => resend(co.pb, w.candidate.id))).toBe(404);
    expect(await statusOf(() => co.pb.send(`/api/screenroom/reviews/${w.candidate.id}`, { method: "GET" }))).toBe(404);
    // nor can they put themselves back: the company is no longer theirs to update
    expect(await statusOf(() => co.pb.collection("companies").update(w.company.id, { "managers+": co.user.id }))).toBe(404);
    expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.manager.user.id]);
    expect((await storedOrNull("jobs", w.job.id))?.title).not.toBe("Taken over");
  });

  it("ends the removed manager's realtime events about the company at once, on the subscription they already had", async () => {
    const w = await world("removed-live");
    const co = await coManagerOf(w, "removed-live-co");
    const seenByCo: RecordModel[] = [];
    const seenByOwner: RecordModel[] = [];
    const stops = [
      await co.pb.collection("candidates").subscribe("*", (event) => seenByCo.push(event.record)),
      await w.manager.pb.collection("candidates").subscribe("*", (event) => seenByOwner.push(event.record)),
    ];
    try {
      await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("removed-live-before") });
      await expect.poll(() => seenByCo.length, { timeout: 20_000 }).toBe(1);

      await w.manager.pb.collection("companies").update(w.company.id, { "managers-": co.user.id });
      const after = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("removed-live-after") });
      // an event the removed manager is owed, sent after: once it arrived, the one about A's candidate would have too
      const own = await createCompany(co.pb, "Own after removal");
      const { question } = await createQuestion(co.pb, own.id, "text");
      const ownJob = await createJob(co.pb, own.id, [question.id]);
      const ownCandidate = await co.pb.collection("candidates").create({ job: ownJob.id, email: uniqueEmail("removed-live-own") });
      await expect.poll(() => seenByCo.some((r) => r.id === ownCandidate.id), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => seenByOwner.some((r) => r.id === after.id), { timeout: 20_000 }).toBe(true);
      expect(seenByCo.map((r) => r.id)).not.toContain(after.id);
    } finally {
      for (const stop of stops) await stop().catch(() => undefined);
    }
  });

  it("is the owner's alone: a co-manager removes nobody but themselves, and nobody removes the owner", async () => {
    const w = await world("only-owner");
    const first = await coManagerOf(w, "only-owner-a");
    const second = await coManagerOf(w, "only-owner-b");
    const error = await expectFieldError(() => first.pb.collection("companies").update(w.company.id, { "managers-": second.user.id }), "managers");
    expect(error.message).toMatch(/^Only the owner/);
    await expectFieldError(() => first.pb.collection("companies").update(w.company.id, { "managers-": w.manager.user.id }), "managers");
    await expectFieldError(() => w.manager.pb.collection("companies").update(w.company.id, { "managers-": w.manager.user.id }), "managers");
    expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.manager.user.id, first.user.id, second.user.id]);
    // the owner removes the second one
    await w.manager.pb.collection("companies").update(w.company.id, { "managers-": second.user.id });
    expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.manager.user.id, first.user.id]);
  });

  it("shows fellow managers' names and avatars, not other users'", async () => {
    const w = await world("team-names");
    const co = await coManagerOf(w, "team-names-co");
    const company = await co.pb.collection("companies").getOne(w.company.id, { expand: "managers" });
    const managers = (company.expand?.managers ?? []) as { id: string; firstName: string; lastName: string; avatar: string }[];
    expect(managers.map((m) => m.id)).toEqual([w.manager.user.id, co.user.id]);
    expect(managers[0]).toMatchObject({ firstName: w.manager.user.firstName, lastName: w.manager.user.lastName });
    expect(managers[0]).toHaveProperty("avatar");
    const stranger = await signUp({ email: uniqueEmail("team-names-stranger") });
    expect(await statusOf(() => stranger.pb.collection("users").getOne(w.manager.user.id))).toBe(404);
  });
});

describe("POST /api/screenroom/candidates/{id}/resend-invite", () => {
  it("mails the interview link again for a manager of the job's company", async () => {
    const w = await world("resend");
    const address = w.candidate.email as string;
    await waitForMail(address, /Your interview for/);
    const co = await coManagerOf(w, "resend-co");
    const sent = await resend(co.pb, w.candidate.id);
    expect(sent.sentAt).toMatch(/^\d{4}-\d\d-\d\d /);
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 30_000 }).toBe(2);
    const mails = await mailsTo(address);
    const again = mails.find((m) => m.html.includes("A reminder of your invitation"));
    expect(again).toBeDefined();
    // the same link as the first mail: resending does not replace the key
    const link = (html: string) => /href="([^"]+\/candidates\/[A-Za-z0-9]{40})"/.exec(html)?.[1];
    expect(link(again!.html)).toBeDefined();
    expect(new Set(mails.map((m) => link(m.html))).size).toBe(1);
  });

  it("is refused to the candidate, another company's manager, a signed-out client and a user with no company: 404, no mail", async () => {
    const w = await world("resend-attack");
    const other = await world("resend-other");
    const stranger = await signUp({ email: uniqueEmail("resend-stranger") });
    const address = w.candidate.email as string;
    await waitForMail(address, /Your interview for/);
    for (const pb of [asCandidate(w.candidate.id), other.manager.pb, anonymous(), stranger.pb]) {
      expect(await statusOf(() => resend(pb, w.candidate.id))).toBe(404);
    }
    // an unknown id answers the same
    expect(await statusOf(() => resend(other.manager.pb, "nosuchcandidate"))).toBe(404);
    // the other company's own candidate is theirs to resend, not A's
    expect(await statusOf(() => resend(w.manager.pb, other.candidate.id))).toBe(404);
    expect((await mailsTo(address)).length).toBe(1);
  });

  it("refuses a withdrawn invitation with what to do instead, and sends nothing", async () => {
    const w = await world("resend-closed");
    const address = w.candidate.email as string;
    // the invitation itself goes through the mail queue: it has arrived before anything is counted
    await waitForMail(address, /Your interview for/);
    await w.manager.pb.collection("candidates").update(w.candidate.id, { withdrawn: true });
    const withdrawn = await errorOf(() => resend(w.manager.pb, w.candidate.id));
    expect(withdrawn.status).toBe(400);
    expect(withdrawn.response.message).toMatch(/^This invitation was withdrawn\. Restore it/);
    expect(withdrawn.response.data).toMatchObject({ candidate: { code: "validation_withdrawn" } });
    // nothing was queued for the refused resend (a resend is queued in its request), and MailDev holds the invite only
    const queued = await (await superuser()).collection("mail_queue").getFullList({ filter: `to = "${address}"` });
    expect(queued.length).toBe(1);
    expect((await mailsTo(address)).length).toBe(1);
  });
});

describe("resending within the address's e-mail budget", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ MAIL_PER_ADDRESS: "2/3600" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 429 with a clear message once the address's budget is spent, and sends nothing more", async () => {
    const manager = await signUp({ email: uniqueEmail("budget-manager") });
    const company = await createCompany(manager.pb, "Budget Inc");
    const { question } = await createQuestion(manager.pb, company.id, "text");
    const job = await createJob(manager.pb, company.id, [question.id]);
    const address = uniqueEmail("budget-candidate");
    const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: address });
    await resend(manager.pb, candidate.id); // the invite and this one: the budget of 2
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 30_000 }).toBe(2);
    const refused = await errorOf(() => resend(manager.pb, candidate.id));
    expect(refused.status).toBe(429);
    expect(refused.response.message).toBe("Too many e-mails were sent to this address. Please try again later.");
    expect(refused.response.data).toMatchObject({ candidate: { code: "validation_too_many_mails" } });
    expect((await mailsTo(address)).length).toBe(2);
  });

});

// A server of its own with a low RATE_LIMIT_INVITES and no per-address limit to speak of (the default UNTHROTTLED one).
describe("resending within the manager's limit", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ RATE_LIMIT_INVITES: "3/3600" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 429 to a manager resending past RATE_LIMIT_INVITES; another manager is not held up", async () => {
    const manager = await signUp({ email: uniqueEmail("resender") });
    const company = await createCompany(manager.pb, "Resender Inc");
    const { question } = await createQuestion(manager.pb, company.id, "text");
    const job = await createJob(manager.pb, company.id, [question.id]);
    const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("resender-c") });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push(await statusOf(() => resend(manager.pb, candidate.id)));
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await errorOf(() => resend(manager.pb, candidate.id));
    expect(refused.response.message).toBe("You sent many invitations again in a short time. Wait a few minutes, then try again.");
    const other = await signUp({ email: uniqueEmail("resender-other") });
    const otherCompany = await createCompany(other.pb, "Other Inc");
    const otherJob = await createJob(other.pb, otherCompany.id, [(await createQuestion(other.pb, otherCompany.id, "text")).question.id]);
    const theirs = await other.pb.collection("candidates").create({ job: otherJob.id, email: uniqueEmail("resender-theirs") });
    expect(await statusOf(() => resend(other.pb, theirs.id))).toBe(200);
  });
});
