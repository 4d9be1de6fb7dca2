// Share links (issue 15 point 6, server/internal/review/share_links*.go): a manager makes a read-only link to one
// candidate's review; the token is shown once and only its SHA-256 is stored; anyone holding it opens the shared view
// (no account, no session made) and streams the candidate's videos through it, with Range; it expires, and it can be
// revoked. Who may call which route is in tests/access-matrix.test.ts, attacks in tests/attacks/share-links.test.ts.
import { createHash } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, fixture, pbUrl, signUp, superuser, uniqueEmail, world } from "./helpers";
import { createLink, openShared, revokeLink } from "./share-link-support";
import { acceptInvite, expectFieldError } from "./support";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const DAY = 24 * 60 * 60 * 1000;
const ms = (date: string) => new Date(date.replace(" ", "T")).getTime();

let a: Awaited<ReturnType<typeof world>>;
let colleague: Awaited<ReturnType<typeof signUp>>;
let su: PocketBase;
let video: { answer: RecordModel; kind: RecordModel };
let text: { answer: RecordModel; kind: RecordModel };
const SEGMENTS = [
  { start: 0, end: 0.4, text: "Hello there" },
  { start: 0.4, end: 1, text: "I am a candidate" },
];

beforeAll(async () => {
  a = await world("share");
  su = await superuser();
  // a second manager of the company, who rates and comments too
  colleague = await signUp({ email: uniqueEmail("share-colleague"), firstName: "Carla", lastName: "Colleague" });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: colleague.user.email });
  expect((await acceptInvite(invite.id, colleague.pb.authStore.token)).status).toBe(200);
  // the job's order is not the order the questions were made in
  await a.manager.pb.collection("jobs").update(a.job.id, { questions: [a.text.question.id, a.video.question.id] });
  video = await answerVideo(a.candidate.id, a.video.question.id);
  text = await answerText(a.candidate.id, a.text.question.id, "I like solving problems.");
  // what the media worker stores
  await su.collection("video_answers").update(video.kind.id, {
    transcriptStatus: "done",
    transcript: "Hello there I am a candidate",
    transcriptSegments: SEGMENTS,
    durationSeconds: 1.008,
  });
});

describe("creating a link", () => {
  it("shows the token once and stores only its SHA-256", async () => {
    const before = Date.now();
    const created = await createLink(a.manager.pb, { candidate: a.candidate.id });
    expect(created.token).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(created.url).toBe(`http://app.screenroom.test/shared/${created.token}`);
    expect(created.link.candidate).toBe(a.candidate.id);
    expect(created.link.createdBy).toBe(a.manager.user.id);
    expect(created.link.includeFeedback).toBe(false);
    expect(created.link.revokedAt).toBe("");
    expect(created.link.lastOpenedAt).toBe("");
    expect(created.link).not.toHaveProperty("tokenHash");
    // 14 days by default
    expect(ms(created.link.expiresAt as string)).toBeGreaterThanOrEqual(before + 14 * DAY - 1000);
    expect(ms(created.link.expiresAt as string)).toBeLessThanOrEqual(Date.now() + 14 * DAY + 1000);

    const stored = await su.collection("share_links").getOne(created.link.id);
    expect(stored.tokenHash).toBe(sha256(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    // the managers' reads never carry the token or its hash
    const viewed = await a.manager.pb.collection("share_links").getOne(created.link.id);
    expect(viewed).not.toHaveProperty("tokenHash");
    expect(JSON.stringify(viewed)).not.toContain(created.token);
    const listed = await a.manager.pb.collection("share_links").getFullList({ filter: a.manager.pb.filter("candidate = {:c}", { c: a.candidate.id }) });
    expect(listed.map((l) => l.id)).toContain(created.link.id);
    for (const link of listed) expect(link).not.toHaveProperty("tokenHash");
  });

  it("makes a new random token every time", async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) tokens.add((await createLink(a.manager.pb, { candidate: a.candidate.id })).token);
    expect(tokens.size).toBe(5);
  });

  it("expires after the days chosen: 1, 7, 14 or 30", async () => {
    for (const days of [1, 7, 14, 30]) {
      const before = Date.now();
      const { link } = await createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays: days, includeFeedback: true });
      expect(link.includeFeedback).toBe(true);
      expect(ms(link.expiresAt as string)).toBeGreaterThanOrEqual(before + days * DAY - 1000);
      expect(ms(link.expiresAt as string)).toBeLessThanOrEqual(Date.now() + days * DAY + 1000);
    }
  });

  it("refuses other expiries and a non-boolean includeFeedback on their fields", async () => {
    const count = async () => (await su.collection("share_links").getList(1, 1, { filter: su.filter("candidate = {:c}", { c: a.candidate.id }) })).totalItems;
    const before = await count();
    for (const expiresInDays of [0, 3, 31, -1, "forever", 14.5]) {
      await expectFieldError(() => createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays }), "expiresInDays");
    }
    await expectFieldError(() => createLink(a.manager.pb, { candidate: a.candidate.id, includeFeedback: "yes" }), "includeFeedback");
    expect(await count()).toBe(before);
  });
});

describe("opening a link", () => {
  it("answers exactly what the shared page shows, to anyone, and signs nobody in", async () => {
    const { token, link } = await createLink(a.manager.pb, { candidate: a.candidate.id });
    expect((await su.collection("share_links").getOne(link.id)).lastOpenedAt).toBe("");
    const company = await su.collection("companies").getOne(a.company.id);

    const before = Date.now();
    const opened = await openShared(token);
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      companyName: "share company",
      companyLogoUrl: `/api/files/companies/${a.company.id}/${company.logo as string}?thumb=100x100`,
      jobTitle: a.job.title,
      candidateEmail: a.candidate.email,
      includeFeedback: false,
      questions: [
        { title: "text question", kind: "text", answer: { kind: "text", content: "I like solving problems." } },
        {
          title: "video question",
          kind: "video",
          answer: {
            kind: "video",
            id: video.kind.id,
            url: `/api/screenroom/shared/${token}/videos/${video.kind.id}`,
            mimeType: "video/webm",
            durationSeconds: 1.008,
            transcriptStatus: "done",
            transcript: "Hello there I am a candidate",
            transcriptSegments: SEGMENTS,
            captionsUrl: `/api/screenroom/shared/${token}/videos/${video.kind.id}/captions.vtt`,
            transcriptUrl: `/api/screenroom/shared/${token}/videos/${video.kind.id}/transcript.txt`,
            language: "en",
          },
        },
      ],
    });
    // no other record's id (the candidate's, the job's, the questions', the answers'), no session of any kind
    for (const id of [a.candidate.id, a.job.id, a.video.question.id, a.text.question.id, video.answer.id, text.answer.id, a.manager.user.id]) {
      expect(opened.text).not.toContain(id);
    }
    expect(opened.headers.get("set-cookie")).toBeNull();
    expect(opened.headers.get("cache-control")).toBe("no-store");

    // the logo is a public file: it loads without any session
    const logo = await fetch(`${pbUrl()}${opened.body.companyLogoUrl as string}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");

    // when it was opened, for the managers' list
    const stored = await su.collection("share_links").getOne(link.id);
    expect(ms(stored.lastOpenedAt as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(ms(stored.lastOpenedAt as string)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(stored.updated).toBe(link.updated);
    expect((await a.manager.pb.collection("share_links").getOne(link.id)).lastOpenedAt).toBe(stored.lastOpenedAt);
  });

  it("ignores a manager's session sent with it and gives back none", async () => {
    const { token } = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const opened = await openShared(token, { Authorization: a.manager.pb.authStore.token });
    expect(opened.status).toBe(200);
    expect(opened.text).not.toContain(a.manager.pb.authStore.token);
    expect(opened.body).not.toHaveProperty("token");
    expect(opened.body).not.toHaveProperty("record");
    expect(opened.headers.get("set-cookie")).toBeNull();
  });

  it("shows the ratings and comments only when the link includes them", async () => {
    await a.manager.pb.collection("ratings").create({ answer: video.answer.id, candidate: a.candidate.id, manager: a.manager.user.id, stars: 4 });
    await colleague.pb.collection("ratings").create({ answer: video.answer.id, candidate: a.candidate.id, manager: colleague.user.id, stars: 5 });
    await colleague.pb.collection("ratings").create({ answer: text.answer.id, candidate: a.candidate.id, manager: colleague.user.id, stars: 2 });
    const first = await a.manager.pb.collection("comments").create({ candidate: a.candidate.id, author: a.manager.user.id, text: "Strong communicator." });
    const second = await colleague.pb.collection("comments").create({ candidate: a.candidate.id, author: colleague.user.id, text: "Agreed, let's advance." });

    const without = await openShared((await createLink(a.manager.pb, { candidate: a.candidate.id, includeFeedback: false })).token);
    expect(without.body.includeFeedback).toBe(false);
    expect(without.body).not.toHaveProperty("comments");
    for (const question of without.body.questions as { answer: Record<string, unknown> }[]) expect(question.answer).not.toHaveProperty("ratings");
    expect(without.text).not.toContain("Strong communicator");
    expect(without.text).not.toContain("Colleague");

    const withFeedback = await openShared((await createLink(a.manager.pb, { candidate: a.candidate.id, includeFeedback: true })).token);
    expect(withFeedback.body.includeFeedback).toBe(true);
    const [textQuestion, videoQuestion] = withFeedback.body.questions as { answer: { ratings: unknown } }[];
    expect(videoQuestion!.answer.ratings).toEqual({
      average: 4.5,
      count: 2,
      byManager: [
        { managerName: "Ada Lovelace", stars: 4 },
        { managerName: "Carla Colleague", stars: 5 },
      ],
    });
    expect(textQuestion!.answer.ratings).toEqual({ average: 2, count: 1, byManager: [{ managerName: "Carla Colleague", stars: 2 }] });
    expect(withFeedback.body.comments).toEqual([
      { authorName: "Ada Lovelace", created: first.created, text: "Strong communicator." },
      { authorName: "Carla Colleague", created: second.created, text: "Agreed, let's advance." },
    ]);
    expect(withFeedback.text).not.toContain(colleague.user.id);
  });

  it("answers 404 'This link is not valid.' for a token nobody made", async () => {
    const opened = await openShared("A".repeat(43));
    expect(opened.status).toBe(404);
    expect(opened.body.message).toBe("This link is not valid.");
  });

  it("answers 410 'This link has expired.' once it expired, for the page and its videos", async () => {
    const { token, link } = await createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays: 1 });
    expect((await openShared(token)).status).toBe(200);
    await su.collection("share_links").update(link.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const opened = await openShared(token);
    expect(opened.status).toBe(410);
    expect(opened.body.message).toBe("This link has expired.");
    const res = await fetch(`${pbUrl()}/api/screenroom/shared/${token}/videos/${video.kind.id}`);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { message: string }).message).toBe("This link has expired.");
  });
});

describe("revoking a link", () => {
  it("stops it at once; revoking again changes nothing", async () => {
    const { token, link } = await createLink(colleague.pb, { candidate: a.candidate.id });
    expect((await openShared(token)).status).toBe(200);

    // the company's owner may revoke a link another manager made (that manager, only their own)
    const before = Date.now();
    const revoked = await revokeLink(a.manager.pb, link.id);
    expect(revoked.id).toBe(link.id);
    expect(revoked.revokedBy).toBe(a.manager.user.id);
    expect(ms(revoked.revokedAt as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(revoked).not.toHaveProperty("tokenHash");

    const opened = await openShared(token);
    expect(opened.status).toBe(410);
    expect(opened.body.message).toBe("This link was revoked.");
    const res = await fetch(`${pbUrl()}/api/screenroom/shared/${token}/videos/${video.kind.id}`);
    expect(res.status).toBe(410);

    const again = await revokeLink(colleague.pb, link.id);
    expect(again.revokedAt).toBe(revoked.revokedAt);
    expect(again.revokedBy).toBe(a.manager.user.id);
    const stored = await su.collection("share_links").getOne(link.id);
    expect(stored.revokedAt).toBe(revoked.revokedAt);
    expect(stored.revokedBy).toBe(a.manager.user.id);
  });
});

describe("the link's videos", () => {
  it("streams the answer's file with its type, whole or by Range (206 with the right bytes)", async () => {
    const { token } = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const url = `${pbUrl()}/api/screenroom/shared/${token}/videos/${video.kind.id}`;
    const original = new Uint8Array(fixture("answer.webm"));

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/webm");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("set-cookie")).toBeNull();
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(original);

    const part = await fetch(url, { headers: { Range: "bytes=100-1099" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${original.length}`);
    expect(part.headers.get("content-type")).toBe("video/webm");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(original.subarray(100, 1100));

    const tail = await fetch(url, { headers: { Range: `bytes=${original.length - 50}-` } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(original.subarray(original.length - 50));

    // the file itself stays protected: its own URL without a manager's token is refused
    const record = await su.collection("video_answers").getOne(video.kind.id);
    expect((await fetch(`${pbUrl()}/api/files/video_answers/${record.id}/${record.file as string}`)).status).toBe(404);
  });
});
