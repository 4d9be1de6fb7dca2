// Share links as an attacker sees them (issue 15 point 6, server/internal/review/share_links*.go): a link reaches
// exactly one candidate, read-only, until it expires or is revoked (decisions.md, "Access model"); its token carries
// 256 random bits, is stored only as its SHA-256 in the hidden tokenHash, and no filter, sort, expand or realtime
// subscription reaches that hash: a true and a false guess get identical answers.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, asCandidate, consent, createCompany, signUp, statusOf, superuser, uniqueEmail, world } from "../helpers";
import { createLink, fetchSharedVideo, openShared, revokeLink, type CreatedLink } from "../share-link-support";
import { acceptInvite, listOutcome } from "../support";
import { subscribe } from "./realtime";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const NOT_VALID = { status: 404, message: "This link is not valid.", data: {} };

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
/** a manager of company X, which A also manages: a fellow manager of A, but not of A's company Y (a.company) */
let m: Awaited<ReturnType<typeof signUp>>;
let su: PocketBase;
let first: { video: { answer: RecordModel; kind: RecordModel } };
let second: { id: string; video: { answer: RecordModel; kind: RecordModel }; text: { answer: RecordModel; kind: RecordModel } };
let otherCompanyVideo: { answer: RecordModel; kind: RecordModel };
let link: CreatedLink;
let hash: string;

beforeAll(async () => {
  a = await world("share-attack-a");
  b = await world("share-attack-b");
  su = await superuser();
  const x = await createCompany(a.manager.pb, "Share attack X");
  m = await signUp({ email: uniqueEmail("share-attack-m") });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: x.id, email: m.user.email });
  expect((await acceptInvite(invite.id, m.pb.authStore.token)).status).toBe(200);

  first = { video: await answerVideo(a.candidate.id, a.video.question.id) };
  // a second candidate of the same job, whose answers the first candidate's link must never reach
  const secondId = (await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("second") })).id;
  await consent(secondId);
  second = { id: secondId, video: await answerVideo(secondId, a.video.question.id), text: await answerText(secondId, a.text.question.id, "Second's answer") };
  otherCompanyVideo = await answerVideo(b.candidate.id, b.video.question.id);
  link = await createLink(a.manager.pb, { candidate: a.candidate.id, includeFeedback: true });
  hash = sha256(link.token);
});

describe("a link reaches one candidate", () => {
  it("streams no other candidate's video, of the same job or another company, and no other record as a video", async () => {
    expect((await fetchSharedVideo(link.token, first.video.kind.id)).status).toBe(200);
    const unknown = await fetchSharedVideo(link.token, "nosuchvideo0000");
    expect(unknown.status).toBe(404);
    for (const id of [second.video.kind.id, otherCompanyVideo.kind.id, second.video.answer.id, second.text.kind.id, first.video.answer.id, a.candidate.id, "%2e%2e", "a%2Fb"]) {
      const res = await fetchSharedVideo(link.token, id);
      expect({ id, status: res.status, body: res.text }).toEqual({ id, status: 404, body: unknown.text });
    }
    // with a Range too
    expect((await fetchSharedVideo(link.token, second.video.kind.id, { Range: "bytes=0-99" })).status).toBe(404);
  });

  it("shows nothing of the second candidate on the shared page", async () => {
    const opened = await openShared(link.token);
    expect(opened.status).toBe(200);
    for (const secret of [second.id, second.video.kind.id, second.video.answer.id, "Second's answer"]) expect(opened.text).not.toContain(secret);
  });

  it("cannot be pointed at another candidate, nor made with a chosen token, hash, creator or dates", async () => {
    const chosen = "Z".repeat(43);
    const made = await createLink(a.manager.pb, {
      candidate: a.candidate.id,
      token: chosen,
      tokenHash: sha256(chosen),
      createdBy: m.user.id,
      expiresAt: "2999-01-01 00:00:00.000Z",
      revokedAt: "",
      lastOpenedAt: "2020-01-01 00:00:00.000Z",
    });
    expect(made.token).not.toBe(chosen);
    const stored = await su.collection("share_links").getOne(made.link.id);
    expect(stored).toMatchObject({ tokenHash: sha256(made.token), createdBy: a.manager.user.id, lastOpenedAt: "" });
    expect(new Date((stored.expiresAt as string).replace(" ", "T")).getTime()).toBeLessThan(Date.now() + 15 * 86_400_000);
    expect((await openShared(chosen)).status).toBe(404);
    expect((await openShared(made.token)).status).toBe(200);
    // a fellow manager of A in another company makes no link to a candidate of A's company
    const refused = await m.pb.send("/api/screenroom/share-links", { method: "POST", body: { candidate: a.candidate.id } }).catch((err: { status: number }) => err.status);
    expect(refused).toBe(404);
  });
});

describe("a revoked or expired link", () => {
  it("opens nothing once revoked: page, videos, Range requests; and its lastOpenedAt stays", async () => {
    const revokable = await createLink(a.manager.pb, { candidate: a.candidate.id, includeFeedback: true });
    expect((await openShared(revokable.token)).status).toBe(200);
    const opened = (await su.collection("share_links").getOne(revokable.link.id)).lastOpenedAt;
    await revokeLink(a.manager.pb, revokable.link.id);
    const page = await openShared(revokable.token);
    expect(page.status).toBe(410);
    expect(page.body).toEqual({ status: 410, message: "This link was revoked.", data: {} });
    for (const headers of [{}, { Range: "bytes=0-99" }] as Record<string, string>[]) {
      const video = await fetchSharedVideo(revokable.token, first.video.kind.id, headers);
      expect(video.status).toBe(410);
      expect(video.text).not.toContain("webm");
    }
    expect((await su.collection("share_links").getOne(revokable.link.id)).lastOpenedAt).toBe(opened);
    // a revoked link is not brought back by the records API
    const restore = await a.manager.pb.collection("share_links").update(revokable.link.id, { revokedAt: "" }).catch((err: { status: number }) => err.status);
    expect(restore).toBe(403);
    expect((await openShared(revokable.token)).status).toBe(410);
  });

  it("opens nothing once expired, even the second it expires; nor is its date extended through the records API", async () => {
    const expiring = await createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays: 1 });
    await su.collection("share_links").update(expiring.link.id, { expiresAt: new Date(Date.now()).toISOString() });
    const page = await openShared(expiring.token);
    expect(page.body).toEqual({ status: 410, message: "This link has expired.", data: {} });
    expect((await fetchSharedVideo(expiring.token, first.video.kind.id, { Range: "bytes=0-99" })).status).toBe(410);
    const extend = await a.manager.pb
      .collection("share_links")
      .update(expiring.link.id, { expiresAt: "2999-01-01 00:00:00.000Z" })
      .catch((err: { status: number }) => err.status);
    expect(extend).toBe(403);
    expect((await openShared(expiring.token)).status).toBe(410);
  });
});

describe("tokens", () => {
  it("the stored hash presented as the token opens nothing", async () => {
    const opened = await openShared(hash);
    expect(opened.status).toBe(404);
    expect(opened.body).toEqual(NOT_VALID);
    expect((await fetchSharedVideo(hash, first.video.kind.id)).status).toBe(404);
  });

  it("a token of the wrong length or characters opens nothing, with the answer an unknown token gets", async () => {
    const t = link.token;
    const wrong = [
      t.slice(0, 42),
      `${t}A`,
      `${t.slice(0, 42)}-`,
      `${t.slice(0, 42)}_`,
      `${t.slice(0, 42)}=`,
      `${t.slice(0, 42)} `,
      `${t.slice(0, 42)}é`,
      `${t.slice(0, 42)}%00`,
      t.toLowerCase() === t ? t.toUpperCase() : t.toLowerCase(),
      "A".repeat(43),
      "0",
      `${t}'`,
      `' || tokenHash != '`,
    ];
    for (const token of wrong) {
      const opened = await openShared(token);
      expect({ token, status: opened.status, body: opened.body }).toEqual({ token, status: 404, body: NOT_VALID });
      expect({ token, status: (await fetchSharedVideo(token, first.video.kind.id)).status }).toEqual({ token, status: 404 });
    }
  });
});

describe("the filter oracle on tokenHash", () => {
  /** the true hash's first characters, and a guess that is false */
  const truth = () => hash.slice(0, 2);
  const lie = () => (hash[0] === "f" ? "0" : "f") + hash[1];

  it("gives identical answers to a true and a false guess, by every operator, to the link's own managers", async () => {
    const filters: [string, (g: string) => string][] = [
      ["=", (g) => `tokenHash = '${g === truth() ? hash : "f".repeat(64)}'`],
      [">=", (g) => `tokenHash >= '${g}'`],
      ["<", (g) => `tokenHash < '${g}'`],
      ["!=", (g) => `tokenHash != '${g === truth() ? hash : "f".repeat(64)}'`],
      ["~", (g) => `tokenHash ~ '${g}%'`],
      ["!~", (g) => `tokenHash !~ '${g}%'`],
      ["with its own id", (g) => `id = '${link.link.id}' && tokenHash >= '${g}'`],
      ["lower", (g) => `tokenHash:lower >= '${g}'`],
      ["length", (g) => `tokenHash:length >= ${g === truth() ? 64 : 65}`],
    ];
    for (const [what, filter] of filters) {
      const right = await listOutcome(a.manager.pb, "share_links", { filter: filter(truth()) });
      const wrong = await listOutcome(a.manager.pb, "share_links", { filter: filter(lie()) });
      expect({ what, right }).toEqual({ what, right: wrong });
      expect({ what, count: right.count ?? 0 }).toEqual({ what, count: 0 });
    }
  });

  it("gives identical answers to sorts by tokenHash", async () => {
    const asc = await listOutcome(a.manager.pb, "share_links", { sort: "tokenHash" });
    const desc = await listOutcome(a.manager.pb, "share_links", { sort: "-tokenHash" });
    expect(asc).toEqual(desc);
    expect(asc.status).toBe(400);
  });

  it("gives identical answers through relations: from candidates, users and companies", async () => {
    const guesses: [string, string, (g: string) => string][] = [
      ["candidates", "back-relation", (g) => `share_links_via_candidate.tokenHash >= '${g}'`],
      ["users", "back-relation from the creator", (g) => `share_links_via_createdBy.tokenHash >= '${g}'`],
      ["companies", "from the company", (g) => `jobs_via_company.candidates_via_job.share_links_via_candidate.tokenHash >= '${g}'`],
      ["candidates", "@collection", (g) => `@collection.share_links.tokenHash >= '${g}'`],
    ];
    for (const [collection, what, filter] of guesses) {
      for (const pb of [a.manager.pb, m.pb]) {
        const right = await listOutcome(pb, collection, { filter: filter(truth()) });
        const wrong = await listOutcome(pb, collection, { filter: filter(lie()) });
        expect({ what, right }).toEqual({ what, right: wrong });
        expect({ what, status: right.status }).toEqual({ what, status: 400 });
      }
    }
  });

  it("does not name tokenHash in a list's or a view's fields", async () => {
    const viewed = await a.manager.pb.collection("share_links").getOne(link.link.id, { fields: "id,tokenHash" });
    expect(viewed).toEqual({ id: link.link.id });
    const listed = await a.manager.pb.collection("share_links").getList(1, 50, { fields: "tokenHash", filter: a.manager.pb.filter("id = {:id}", { id: link.link.id }) });
    expect(listed.items).toEqual([{}]);
  });

  it("gives identical realtime events to a true and a false guess", async () => {
    const marker = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const target = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const targetHash = sha256(target.token);
    const guess = (prefix: string) => JSON.stringify({ query: { filter: `tokenHash >= '${prefix}'` } });
    const right = await subscribe(a.manager.pb.authStore.token, [`share_links/*?options=${encodeURIComponent(guess(targetHash.slice(0, 2)))}`, `share_links/${marker.link.id}`]);
    const wrong = await subscribe(a.manager.pb.authStore.token, [`share_links/*?options=${encodeURIComponent(guess("g"))}`, `share_links/${marker.link.id}`]);
    // the target changes, then the marker: once each connection has the marker's event, it had every earlier one
    await revokeLink(a.manager.pb, target.link.id);
    await revokeLink(a.manager.pb, marker.link.id);
    const dataOf = async (sub: typeof right) => (await sub.until(marker.link.id)).map((e) => e.data);
    const [rightEvents, wrongEvents] = await Promise.all([dataOf(right), dataOf(wrong)]);
    expect(rightEvents).toEqual(wrongEvents);
    // and no event carries a hash: the marker's own included
    for (const event of rightEvents) {
      expect(event).not.toContain(targetHash);
      expect(event).not.toContain(sha256(marker.token));
      expect(event).not.toContain("tokenHash");
    }
    expect(rightEvents).toHaveLength(1);
  });
});

describe("expanding share links", () => {
  it("another company's manager reaches none through candidates", async () => {
    const own = await b.manager.pb.collection("candidates").getFullList({ expand: "share_links_via_candidate" });
    expect(own.map((c) => c.id)).not.toContain(a.candidate.id);
    for (const candidate of own) expect(candidate.expand?.share_links_via_candidate).toBeUndefined();
    const foreign = await b.manager.pb
      .collection("candidates")
      .getOne(a.candidate.id, { expand: "share_links_via_candidate" })
      .catch((err: { status: number }) => err.status);
    expect(foreign).toBe(404);
  });

  it("a fellow manager of A in another company reaches none through A's user record", async () => {
    const seen = await m.pb.collection("users").getOne(a.manager.user.id, { expand: "share_links_via_createdBy,share_links_via_revokedBy" });
    expect(seen.id).toBe(a.manager.user.id);
    expect(seen.expand?.share_links_via_createdBy).toBeUndefined();
    expect(seen.expand?.share_links_via_revokedBy).toBeUndefined();
  });

  it("the candidate itself, with its key, sees none of its links", async () => {
    const self = await asCandidate(a.candidate.id).collection("candidates").getOne(a.candidate.id, { expand: "share_links_via_candidate" });
    expect(self.id).toBe(a.candidate.id);
    expect(self.expand?.share_links_via_candidate).toBeUndefined();
    const listed = await listOutcome(asCandidate(a.candidate.id), "share_links", {});
    expect(listed).toEqual({ status: 200, count: 0, ids: [] });
  });

  it("the link's own managers get the links without tokenHash", async () => {
    const candidate = await a.manager.pb.collection("candidates").getOne(a.candidate.id, { expand: "share_links_via_candidate" });
    const links = (candidate.expand?.share_links_via_candidate ?? []) as RecordModel[];
    expect(links.map((l) => l.id)).toContain(link.link.id);
    expect(JSON.stringify(candidate)).not.toContain(hash);
    expect(JSON.stringify(candidate)).not.toContain(link.token);
  });
});

// Security round three, finding 3: a co-manager B makes a 30-day link with feedback, the owner removes B from the
// company; the link must stop working at the removal (the answer a revoked link gets), stay dead when B comes back,
// and the same holds however the managers list loses B (decisions.md: "Share links of a removed manager are revoked
// at removal and stay revoked if they are added again").
describe("a link outlives no manager who made it", () => {
  const REVOKED = { status: 410, message: "This link was revoked.", data: {} };
  /** a fresh co-manager of A's company (a.company), joined through an invite as the product does it */
  async function coManager(label: string) {
    const fellow = await signUp({ email: uniqueEmail(label) });
    await join(fellow);
    return fellow;
  }
  async function join(fellow: Awaited<ReturnType<typeof signUp>>) {
    const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: fellow.user.email });
    expect((await acceptInvite(invite.id, fellow.pb.authStore.token)).status).toBe(200);
  }

  it("the issue's sequence: removed by the owner, the link answers as revoked, with no comment written since; re-added, it stays so", async () => {
    const fellow = await coManager("share-removed");
    const made = await createLink(fellow.pb, { candidate: a.candidate.id, expiresInDays: 30, includeFeedback: true });
    expect((await openShared(made.token)).status).toBe(200);
    // the owner's own link to the same candidate, which the removal leaves alone
    const owners = await createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays: 30, includeFeedback: true });

    const removed = await a.manager.pb.send(`/api/collections/companies/records/${a.company.id}`, {
      method: "PATCH",
      body: { "managers-": fellow.user.id },
    });
    expect(removed.managers).not.toContain(fellow.user.id);
    // B's API access has ended
    expect(await statusOf(() => fellow.pb.collection("candidates").getOne(a.candidate.id))).toBe(404);
    const after = "Written after B's removal";
    await a.manager.pb.collection("comments").create({ candidate: a.candidate.id, author: a.manager.user.id, text: after });

    const page = await openShared(made.token);
    expect({ status: page.status, body: page.body }).toEqual({ status: 410, body: REVOKED });
    expect(page.text).not.toContain(after);
    for (const headers of [{}, { Range: "bytes=0-99" }] as Record<string, string>[]) {
      const video = await fetchSharedVideo(made.token, first.video.kind.id, headers);
      expect(video.status).toBe(410);
    }
    // revoked in the database, not only refused: the owner's list and the candidate's list show it revoked
    const stored = await su.collection("share_links").getOne(made.link.id);
    expect(stored.revokedAt).not.toBe("");
    expect(await statusOf(() => revokeLink(fellow.pb, made.link.id))).toBe(404);
    // the owner's link still opens, with the comment
    const ownersPage = await openShared(owners.token);
    expect(ownersPage.status).toBe(200);
    expect(ownersPage.text).toContain(after);

    // B is added back: the old link stays revoked; a link B makes now works
    await join(fellow);
    const again = await openShared(made.token);
    expect({ status: again.status, body: again.body }).toEqual({ status: 410, body: REVOKED });
    expect((await fetchSharedVideo(made.token, first.video.kind.id)).status).toBe(410);
    const fresh = await createLink(fellow.pb, { candidate: a.candidate.id });
    expect((await openShared(fresh.token)).status).toBe(200);
  });

  it("holds when B leaves by themselves, when a batch removes B, and when a superuser does; B's links elsewhere stay", async () => {
    // B also manages another company (created by B): a link there is not the removed company's business
    const leaving = await coManager("share-leaving");
    const own = await world("share-leaving-own");
    const batched = await coManager("share-batched");
    const bySuperuser = await coManager("share-by-su");
    const elsewhere = await createLink(own.manager.pb, { candidate: own.candidate.id });
    const invite = await own.manager.pb.collection("manager_invites").create({ company: own.company.id, email: leaving.user.email });
    expect((await acceptInvite(invite.id, leaving.pb.authStore.token)).status).toBe(200);
    const leavingElsewhere = await createLink(leaving.pb, { candidate: own.candidate.id });
    const links = {
      leaving: await createLink(leaving.pb, { candidate: a.candidate.id, includeFeedback: true }),
      batched: await createLink(batched.pb, { candidate: second.id }),
      bySuperuser: await createLink(bySuperuser.pb, { candidate: a.candidate.id }),
    };
    for (const link of Object.values(links)) expect((await openShared(link.token)).status).toBe(200);

    await leaving.pb.collection("companies").update(a.company.id, { "managers-": leaving.user.id });
    const batch = a.manager.pb.createBatch();
    batch.collection("companies").update(a.company.id, { "managers-": batched.user.id });
    await batch.send();
    await su.collection("companies").update(a.company.id, { "managers-": bySuperuser.user.id });

    for (const [who, link] of Object.entries(links)) {
      const page = await openShared(link.token);
      expect({ who, status: page.status, body: page.body }).toEqual({ who, status: 410, body: REVOKED });
      expect({ who, revoked: (await su.collection("share_links").getOne(link.link.id)).revokedAt !== "" }).toEqual({ who, revoked: true });
    }
    // the company B still manages: B's link and its owner's keep working
    expect((await openShared(leavingElsewhere.token)).status).toBe(200);
    expect((await openShared(elsewhere.token)).status).toBe(200);
  });

  it("a co-manager cannot revoke another manager's link; the owner revokes any", async () => {
    const fellow = await coManager("share-revoker");
    const other = await coManager("share-other");
    const othersLink = await createLink(other.pb, { candidate: a.candidate.id });
    const status = await statusOf(() => revokeLink(fellow.pb, othersLink.link.id));
    expect(status).toBe(403);
    expect((await su.collection("share_links").getOne(othersLink.link.id)).revokedAt).toBe("");
    expect((await openShared(othersLink.token)).status).toBe(200);
    // their own, yes; and the owner any
    const fellowsLink = await createLink(fellow.pb, { candidate: a.candidate.id });
    expect(await statusOf(() => revokeLink(fellow.pb, fellowsLink.link.id))).toBe(200);
    const revoked = await revokeLink(a.manager.pb, othersLink.link.id);
    expect(revoked.revokedBy).toBe(a.manager.user.id);
    expect((await openShared(othersLink.token)).status).toBe(410);
  });
});
