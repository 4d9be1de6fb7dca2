// Issue 19 point 6: export and erasure (server/internal/lifecycle: export.go, erasure.go) and the audit log
// (pb_migrations/1733200100_audit_log.js, internal/lifecycle/audit_log.go). On a server of the suite's
// own, so its storage folder, mail queue and request log hold nobody else's rows, and "gone from the disk" can be
// read there.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  answerText,
  answerVideo,
  asCandidate,
  asCandidateKey,
  consent,
  createJob,
  createQuestion,
  errorOf,
  fixture,
  putPart,
  randomId,
  signUp,
  statusOf,
  superuser,
  uniqueEmail,
  useOwnServer,
  waitForMail,
  world,
  type OwnServer,
} from "./helpers";
import { createLink } from "./share-link-support";
import { candidateRowsLeft, entriesOf, partsOf } from "./support";
import { readZip } from "./zip-reader";

let server: OwnServer;
let su: PocketBase;

beforeAll(async () => {
  server = await useOwnServer({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "1" });
  su = await superuser();
});

afterAll(async () => {
  await server?.stop();
});

async function storageOf(collection: string, recordId = "") {
  const { id } = await su.collections.getOne(collection);
  return join(server.dataDir, "storage", id, recordId);
}
const takeDirOf = (take: string) => join(server.dataDir, "screenroom_takes", take);
const entries = entriesOf;

async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function count(collection: string, filter: string, params: Record<string, unknown>) {
  return (await su.collection(collection).getList(1, 1, { filter: su.filter(filter, params) })).totalItems;
}

/** GET the export with `pb`'s token (none for an anonymous client): the status and the body's bytes. */
async function exportOf(pb: PocketBase, candidate: string) {
  const headers: Record<string, string> = {};
  if (pb.authStore.token) headers.Authorization = pb.authStore.token;
  const res = await fetch(`${server.url}/api/screenroom/candidates/${encodeURIComponent(candidate)}/export`, { headers });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

const erase = (pb: PocketBase, candidate: string) =>
  pb.send<{ answers: number; videos: number }>(`/api/screenroom/candidates/${encodeURIComponent(candidate)}/erase`, { method: "POST" });

const word = (prefix: string) => `${prefix}${randomId().replace(/[0-9]/g, "")}`;

/**
 * A company with a webhook endpoint, two jobs, and the same person (one e-mail) invited to both: `candidate` (job 1)
 * has answered a video (transcribed) and a text question, has a staged take for a third, a rating, a comment, a
 * decision with its decision message and a share link; `twin` (job 2) answered a text question.
 */
async function erasureWorld(label: string) {
  const w = await world(label);
  const third = await createQuestion(w.manager.pb, w.company.id, "video", { title: "Third question" });
  await w.manager.pb.collection("jobs").update(w.job.id, { questions: [w.video.question.id, w.text.question.id, third.question.id] });
  const job2 = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
  await w.manager.pb.collection("webhook_endpoints").create({ company: w.company.id, url: "http://127.0.0.1:9/hook", events: ["candidate.invited", "candidate.decided"] });

  const email = uniqueEmail(`${label}-person`);
  const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email, firstName: "Grace", lastName: "Hopper" });
  const twin = await w.manager.pb.collection("candidates").create({ job: job2.id, email });
  for (const c of [candidate, twin]) await consent(c.id);

  const topic = word("zorbex");
  const video = await answerVideo(candidate.id, w.video.question.id);
  const segments = [
    { start: 0, end: 1.5, text: "Hello." },
    { start: 2, end: 4, text: `I led the ${topic} project.` },
  ];
  await su.collection("video_answers").update(video.kind.id, { transcript: `Hello. I led the ${topic} project.`, transcriptSegments: segments, transcriptStatus: "done" });
  const text = await answerText(candidate.id, w.text.question.id, `My ${topic} answer in words.`);
  const twinText = await answerText(twin.id, w.text.question.id, `The twin's ${topic} answer.`);
  const take = randomId();
  await putPart(asCandidate(candidate.id), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), third.question.id);
  await w.manager.pb.collection("ratings").create({ answer: video.answer.id, candidate: candidate.id, manager: w.manager.user.id, stars: 4 });
  await w.manager.pb.collection("comments").create({ candidate: candidate.id, author: w.manager.user.id, text: "Calm and clear." });
  await w.manager.pb.send(`/api/screenroom/candidates/${candidate.id}/decision`, { method: "POST", body: { decision: "advance" } });
  await w.manager.pb.send(`/api/screenroom/candidates/${candidate.id}/decision-message`, { method: "POST", body: { kind: "advance" } });
  await createLink(w.manager.pb, { candidate: candidate.id });
  return { ...w, job2, email, candidate, twin, topic, video, text, twinText, take, segments };
}

/** Every row of the candidate's (candidateRowsLeft), and the queued e-mails carrying their key or id. */
async function leftOf(candidate: string, secret: string) {
  const mails = "html ~ {:s} || text ~ {:s} || html ~ {:c} || text ~ {:c}";
  return { ...(await candidateRowsLeft(candidate)), mail_queue: await count("mail_queue", mails, { s: secret, c: candidate }) };
}

const search = (pb: PocketBase, company: string, q: string) =>
  pb.send<{ items: { answer: string }[] }>(`/api/screenroom/companies/${company}/search`, { query: { q } });

describe("export", () => {
  it("gives a manager of the company a zip of the candidate's videos, transcripts, answers, ratings, comments and decision, with a README", async () => {
    const w = await erasureWorld("export");
    const res = await exportOf(w.manager.pb, w.candidate.id);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/zip");
    const zip = readZip(res.body);
    const videoName = `videos/1-${w.video.answer.id}.webm`;
    const transcriptName = `transcripts/1-${w.video.answer.id}.txt`;
    const segmentsName = `transcripts/1-${w.video.answer.id}.segments.json`;
    expect([...zip.keys()].sort()).toEqual(
      ["README.txt", "answers.json", "candidate.json", "comments.json", "decision.json", "job.json", "messages.json", "ratings.json", videoName, transcriptName, segmentsName].sort(),
    );
    const json = (name: string) => JSON.parse(zip.get(name)!.toString("utf8"));

    // the original video, byte for byte
    const stored = await su.collection("video_answers").getOne(w.video.kind.id);
    const token = await su.files.getToken();
    const original = Buffer.from(await (await fetch(su.files.getURL(stored, stored.file as string, { token }))).arrayBuffer());
    expect(zip.get(videoName)!.equals(original)).toBe(true);
    expect(original.length).toBeGreaterThan(1000);

    expect(zip.get(transcriptName)!.toString("utf8").trim()).toBe(`Hello. I led the ${w.topic} project.`);
    expect(json(segmentsName)).toEqual(w.segments);
    const candidate = json("candidate.json");
    expect(candidate).toMatchObject({ id: w.candidate.id, email: w.email, firstName: "Grace", lastName: "Hopper", decision: "advance" });
    expect(candidate.secret).toBeUndefined();
    expect(JSON.stringify(json("candidate.json"))).not.toContain((await su.collection("candidates").getOne(w.candidate.id)).secret as string);
    expect(json("job.json")).toMatchObject({ id: w.job.id, title: "Support engineer" });
    const answers = json("answers.json");
    expect(answers).toHaveLength(2);
    expect(answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: w.video.answer.id, questionTitle: "video question", questionKind: "video", video: expect.objectContaining({ file: videoName, transcript: transcriptName, transcriptSegments: segmentsName, transcriptStatus: "done" }) }),
        expect.objectContaining({ id: w.text.answer.id, questionTitle: "text question", questionDescription: "Tell us about yourself", questionKind: "text", text: `My ${w.topic} answer in words.` }),
      ]),
    );
    expect(json("ratings.json")).toEqual([expect.objectContaining({ answer: w.video.answer.id, manager: w.manager.user.id, stars: 4 })]);
    expect(json("comments.json")).toEqual([expect.objectContaining({ author: w.manager.user.id, text: "Calm and clear." })]);
    expect(json("decision.json")).toMatchObject({ decision: "advance", decisionBy: w.manager.user.id });
    expect(json("messages.json")).toEqual([
      expect.objectContaining({ kind: "advance", language: "en", subject: "Next steps for Support engineer at export company", sentBy: w.manager.user.id }),
    ]);
    expect(json("messages.json")[0].body).toContain("Thank you for your video interview for the Support engineer position at export company.");
    const readme = zip.get("README.txt")!.toString("utf8");
    for (const name of ["candidate.json", "answers.json", "videos/", "transcripts/", "ratings.json", "comments.json", "decision.json", "messages.json"]) expect(readme).toContain(name);
    // the twin's answer is not in it
    expect(res.body.includes(Buffer.from(w.twinText.answer.id))).toBe(false);

    // written to the audit log: who, which candidate, no e-mail or name
    const log = await w.manager.pb.collection("audit_log").getFullList({ filter: w.manager.pb.filter("company = {:c}", { c: w.company.id }) });
    expect(log).toEqual([expect.objectContaining({ action: "export", actorKind: "manager", actor: w.manager.user.id, candidateId: w.candidate.id, company: w.company.id })]);
    expect(JSON.stringify(log)).not.toContain(w.email);
    expect(JSON.stringify(log)).not.toContain("Grace");
  });

  it("answers 404 to everyone else, an unknown candidate included, and logs nothing", async () => {
    const w = await world("export-others");
    const other = await world("export-other-company");
    const unverified = await signUp({ email: uniqueEmail("export-unverified") });
    await su.collection("companies").update(w.company.id, { "managers+": unverified.user.id });
    await su.collection("users").update(unverified.user.id, { verified: false });
    for (const pb of [other.manager.pb, asCandidate(w.candidate.id), anonymous(), unverified.pb]) {
      expect((await exportOf(pb, w.candidate.id)).status).toBe(404);
    }
    expect((await exportOf(w.manager.pb, "nosuchcandidat")).status).toBe(404);
    expect(await count("audit_log", "company = {:c}", { c: w.company.id })).toBe(0);
  });

  it("of a candidate without answers holds the README, the candidate and empty lists", async () => {
    const w = await world("export-empty");
    const zip = readZip((await exportOf(w.manager.pb, w.candidate.id)).body);
    expect(JSON.parse(zip.get("answers.json")!.toString("utf8"))).toEqual([]);
    expect(JSON.parse(zip.get("candidate.json")!.toString("utf8"))).toMatchObject({ id: w.candidate.id, email: w.candidate.email });
    expect([...zip.keys()].some((name) => name.startsWith("videos/"))).toBe(false);
  });
});

describe("erasure", () => {
  it("removes the candidate from every store, files and search included, keeps the same person's other candidacy, and logs it", async () => {
    const w = await erasureWorld("erase");
    const secret = (await su.collection("candidates").getOne(w.candidate.id)).secret as string;
    const twinSecret = (await su.collection("candidates").getOne(w.twin.id)).secret as string;
    const videoDir = await storageOf("video_answers", w.video.kind.id);
    expect(entries(videoDir).length).toBeGreaterThan(0);
    expect(partsOf(takeDirOf(w.take))).toEqual(["0"]);
    await until(async () => (await count("webhook_deliveries", "candidate = {:c}", { c: w.candidate.id })) >= 2);
    const before = await leftOf(w.candidate.id, secret);
    expect(before).toMatchObject({ candidates: 1, answers: 2, video_answers: 1, text_answers: 1, ratings: 1, comments: 1, share_links: 1, staged_takes: 1, decision_messages: 1 });
    expect(before.question_progress).toBeGreaterThan(0);
    expect(before.webhook_deliveries).toBeGreaterThanOrEqual(2);
    expect(before.mail_queue).toBeGreaterThanOrEqual(1);
    // the interview e-mail names its candidate (mail_queue.candidate); an e-mail queued before that field existed
    // names nobody, and goes by the id in its link (a legacy link)
    expect(await count("mail_queue", "candidate = {:c}", { c: w.candidate.id })).toBe(before.mail_queue);
    await su.collection("mail_queue").create({
      to: w.email, subject: "Your interview (old link)", html: `<a href="http://x/candidates/${w.candidate.id}">open</a>`, status: "failed", attempts: 5,
    });
    expect((await leftOf(w.candidate.id, secret)).mail_queue).toBe(before.mail_queue + 1);
    const twinBefore = await leftOf(w.twin.id, twinSecret);
    expect((await search(w.manager.pb, w.company.id, w.topic)).items.map((hit) => hit.answer).sort()).toEqual(
      [w.video.answer.id, w.text.answer.id, w.twinText.answer.id].sort(),
    );

    expect(await erase(w.manager.pb, w.candidate.id)).toEqual({ answers: 2, videos: 1 });

    expect(await leftOf(w.candidate.id, secret)).toEqual({
      candidates: 0, answers: 0, video_answers: 0, text_answers: 0, ratings: 0, comments: 0, share_links: 0,
      question_progress: 0, staged_takes: 0, webhook_deliveries: 0, decision_messages: 0, mail_queue: 0,
    });
    await until(() => !existsSync(videoDir));
    await until(() => !existsSync(takeDirOf(w.take)));
    // the search index: no row left for their answers, no hit
    expect((await search(w.manager.pb, w.company.id, w.topic)).items.map((hit) => hit.answer)).toEqual([w.twinText.answer.id]);
    // the same person's candidacy for the other job, and its e-mail to the same address, stay
    expect(await leftOf(w.twin.id, twinSecret)).toEqual(twinBefore);
    expect(twinBefore.mail_queue).toBeGreaterThanOrEqual(1);
    // (the twin's own e-mails to that address: its invite and receipt; the managers' notice about it goes elsewhere)
    expect(await count("mail_queue", "to = {:e}", { e: w.email })).toBe(await count("mail_queue", "to = {:e} && candidate = {:c}", { e: w.email, c: w.twin.id }));
    expect(await count("mail_queue", "to = {:e}", { e: w.email })).toBeGreaterThanOrEqual(2);
    // nothing in the database names them: the raw tables
    const dump = JSON.stringify(await su.collection("audit_log").getFullList());
    expect(dump).not.toContain(w.email);
    // the job and the company's questions stay
    expect((await su.collection("jobs").getOne(w.job.id)).id).toBe(w.job.id);

    const log = await w.manager.pb.collection("audit_log").getFullList({ filter: w.manager.pb.filter("company = {:c}", { c: w.company.id }), sort: "created" });
    expect(log).toEqual([expect.objectContaining({ action: "erase", actorKind: "manager", actor: w.manager.user.id, candidateId: w.candidate.id })]);

    // erased means gone: the export, the review and a second erase find nothing
    expect((await exportOf(w.manager.pb, w.candidate.id)).status).toBe(404);
    expect((await errorOf(() => erase(w.manager.pb, w.candidate.id))).status).toBe(404);
  });

  it("removes PocketBase's request log lines that hold the candidate's key", async () => {
    const w = await world("erase-logs");
    const secret = (await su.collection("candidates").getOne(w.candidate.id)).secret as string;
    const logsWith = async (needle: string) =>
      (await su.logs.getList(1, 50, { filter: su.filter("data.url ~ {:n} || message ~ {:n}", { n: needle }) })).items;
    // the candidate opens the interview: GET /api/screenroom/interviews/{key} is logged with the key in its URL
    await asCandidate(w.candidate.id).send(`/api/screenroom/interviews/${secret}`, {});
    // PocketBase writes its request log in batches: wait for the line
    await until(async () => (await logsWith(secret)).length > 0);

    await erase(w.manager.pb, w.candidate.id);

    expect(await logsWith(secret)).toEqual([]);
    // the erase request's own line, written after it, holds only the record id (no key, no e-mail)
    await until(async () => (await logsWith(`/candidates/${w.candidate.id}/erase`)).length > 0);
    expect(JSON.stringify(await logsWith(w.candidate.id))).not.toContain(w.candidate.email);
    expect(await logsWith(secret)).toEqual([]);
  });

  it("works for a candidate without answers (no confirmation needed server-side)", async () => {
    const w = await world("erase-plain");
    expect(await erase(w.manager.pb, w.candidate.id)).toEqual({ answers: 0, videos: 0 });
    expect(await count("candidates", "id = {:c}", { c: w.candidate.id })).toBe(0);
  });

  it("answers 404 to everyone else and erases nothing", async () => {
    const w = await world("erase-others");
    await answerText(w.candidate.id, w.text.question.id);
    const other = await world("erase-other-company");
    for (const pb of [other.manager.pb, asCandidate(w.candidate.id), anonymous()]) {
      expect((await errorOf(() => erase(pb, w.candidate.id))).status).toBe(404);
    }
    expect(await count("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(1);
    expect(await count("audit_log", "company = {:c}", { c: w.company.id })).toBe(0);
  });
});

// A candidate's own withdrawal (POST /api/screenroom/interviews/{key}/withdraw, server/internal/interview/withdrawal.go):
// the erasure a manager's is, with the erasure's own checks, logged as the candidate's act; every manager is told,
// without the candidate's name or address; the link then says they withdrew.
describe("a candidate's own withdrawal", () => {
  const interviewPath = (key: string) => `/api/screenroom/interviews/${encodeURIComponent(key)}`;
  const withdraw = (key: string) => asCandidateKey(key).send<{ answers: number; videos: number }>(`${interviewPath(key)}/withdraw`, { method: "POST" });
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
  const logsWith = async (needle: string) =>
    (await su.logs.getList(1, 50, { filter: su.filter("data.url ~ {:n} || message ~ {:n}", { n: needle }) })).items;

  it("erases them from every store, logs it as theirs, mails every manager without naming them, and the link then says they withdrew", async () => {
    const w = await erasureWorld("withdraw");
    const second = await signUp({ email: uniqueEmail("withdraw-second"), firstName: "Bea" });
    await su.collection("companies").update(w.company.id, { "managers+": second.user.id });
    const secret = (await su.collection("candidates").getOne(w.candidate.id)).secret as string;
    const twinSecret = (await su.collection("candidates").getOne(w.twin.id)).secret as string;
    const videoDir = await storageOf("video_answers", w.video.kind.id);
    expect(entries(videoDir).length).toBeGreaterThan(0);
    await until(async () => (await count("webhook_deliveries", "candidate = {:c}", { c: w.candidate.id })) >= 2);
    const before = await leftOf(w.candidate.id, secret);
    expect(before).toMatchObject({ candidates: 1, answers: 2, video_answers: 1, text_answers: 1, ratings: 1, comments: 1, share_links: 1, staged_takes: 1, decision_messages: 1 });
    const twinBefore = await leftOf(w.twin.id, twinSecret);
    // they chose Dutch with the switcher; their consent and that choice are in the request log, with the key
    await asCandidateKey(secret).send(`${interviewPath(secret)}/language`, { method: "POST", body: { language: "nl" } });
    await until(async () => (await logsWith(secret)).length >= 2);

    expect(await withdraw(secret)).toEqual({ answers: 2, videos: 1 });

    expect(await leftOf(w.candidate.id, secret)).toEqual({
      candidates: 0, answers: 0, video_answers: 0, text_answers: 0, ratings: 0, comments: 0, share_links: 0,
      question_progress: 0, staged_takes: 0, webhook_deliveries: 0, decision_messages: 0, mail_queue: 0,
    });
    await until(() => !existsSync(videoDir));
    await until(() => !existsSync(takeDirOf(w.take)));
    expect((await search(w.manager.pb, w.company.id, w.topic)).items.map((hit) => hit.answer)).toEqual([w.twinText.answer.id]);
    // the same person's other candidacy stays whole
    expect(await leftOf(w.twin.id, twinSecret)).toEqual(twinBefore);

    // the audit log: the candidate's own act, no manager named
    const log = await w.manager.pb.collection("audit_log").getFullList({ filter: w.manager.pb.filter("company = {:c}", { c: w.company.id }) });
    expect(log).toEqual([expect.objectContaining({ action: "withdraw", actorKind: "candidate", actor: "", candidateId: w.candidate.id })]);

    // the link is remembered by its key's hash only, with their language
    const links = await su.collection("withdrawn_links").getFullList({ filter: su.filter("keyHash = {:h}", { h: sha256(secret) }) });
    expect(links).toEqual([expect.objectContaining({ keyHash: sha256(secret), language: "nl" })]);
    expect(JSON.stringify(await su.collection("withdrawn_links").getFullList())).not.toContain(secret);

    // every manager is told, in English, of the job, never of the candidate
    for (const manager of [w.manager.user, second.user]) {
      const notice = await waitForMail(manager.email as string, /^A candidate withdrew from the interview for /);
      expect(notice.subject).toBe(`A candidate withdrew from the interview for ${w.job.title}`);
      expect(notice.html).toContain(`<strong>${w.job.title}</strong> at <strong>${w.company.name}</strong>`);
      expect(notice.html).toMatch(/ on \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC\./);
      for (const personal of [w.email, "Grace", "Hopper", w.candidate.id, secret]) {
        expect(notice.html + notice.subject + (notice.text ?? "")).not.toContain(personal);
      }
    }
    expect(await count("mail_queue", "subject ~ 'A candidate withdrew' && to = {:to}", { to: second.user.email })).toBe(1);

    // the link now says they withdrew, in their language, and nothing else
    const read = await asCandidateKey(secret).send(interviewPath(secret), {});
    expect(read).toEqual({ withdrawnAt: links[0]!.created, language: "nl" });

    // the request log keeps no line with the key: the earlier ones went with the erasure, and the withdrawal's own
    // was never written (a later request's line shows the log has been written since)
    await statusOf(() => w.manager.pb.send("/api/screenroom/candidates/nosuchcandidat/erase", { method: "POST" }));
    await until(async () => (await logsWith("/candidates/nosuchcandidat/erase")).length > 0);
    expect(await logsWith(secret)).toEqual([]);

    // a second withdrawal finds nobody
    expect((await errorOf(() => withdraw(secret))).status).toBe(404);
    expect(await count("audit_log", "company = {:c}", { c: w.company.id })).toBe(1);
  });

  it("is open whatever the interview's state: a passed deadline, an invitation a manager withdrew, a closed job", async () => {
    const w = await world("withdraw-closed");
    const late = await su.collection("candidates").create({ job: w.job.id, email: uniqueEmail("withdraw-late"), deadline: "2020-01-01 00:00:00.000Z" });
    await su.collection("candidates").update(w.candidate.id, { withdrawn: true });
    for (const id of [late.id, w.candidate.id]) {
      const key = (await su.collection("candidates").getOne(id)).secret as string;
      expect(await withdraw(key)).toEqual({ answers: 0, videos: 0 });
      expect(await count("candidates", "id = {:c}", { c: id })).toBe(0);
    }
    const other = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("withdraw-job-closed") });
    await w.manager.pb.send(`/api/screenroom/jobs/${w.job.id}/close`, { method: "POST" });
    const key = (await su.collection("candidates").getOne(other.id)).secret as string;
    expect(await withdraw(key)).toEqual({ answers: 0, videos: 0 });
    // the job's language, English when it names none, is the language of the withdrawn link
    expect(await asCandidateKey(key).send(interviewPath(key), {})).toMatchObject({ language: "en" });
  });
});

describe("the audit log is append-only", () => {
  it("refuses a superuser's update and delete, and goes only with its company", async () => {
    const w = await world("audit");
    await exportOf(w.manager.pb, w.candidate.id);
    const [entry] = await su.collection("audit_log").getFullList({ filter: su.filter("company = {:c}", { c: w.company.id }) });
    expect(entry).toBeDefined();
    expect((await errorOf(() => su.collection("audit_log").update(entry!.id, { action: "erase" }))).status).toBe(400);
    expect((await errorOf(() => su.collection("audit_log").update(entry!.id, { actor: "" }))).status).toBe(400);
    expect((await errorOf(() => su.collection("audit_log").delete(entry!.id))).status).toBe(400);
    expect(await su.collection("audit_log").getOne(entry!.id)).toMatchObject({ action: "export", actor: w.manager.user.id });
    // the managers themselves: no rule lets anyone but a superuser write (PocketBase answers 403 to a null rule)
    expect((await errorOf(() => w.manager.pb.collection("audit_log").update(entry!.id, { action: "erase" }))).status).toBe(403);
    expect((await errorOf(() => w.manager.pb.collection("audit_log").delete(entry!.id))).status).toBe(403);
    expect((await errorOf(() => w.manager.pb.collection("audit_log").create({ company: w.company.id, action: "erase", candidateId: "x" }))).status).toBe(403);
    expect(await count("audit_log", "company = {:c}", { c: w.company.id })).toBe(1);
    // deleting the company takes its log with it (PocketBase's cascade, the one delete the hooks allow)
    await su.collection("companies").delete(w.company.id);
    expect(await count("audit_log", "id = {:id}", { id: entry!.id })).toBe(0);
  });

  it("keeps an entry when its manager deletes their account, with the actor emptied", async () => {
    const w = await world("audit-actor");
    const second = await signUp({ email: uniqueEmail("audit-second") });
    await su.collection("companies").update(w.company.id, { "managers+": second.user.id });
    await exportOf(second.pb, w.candidate.id);
    await su.collection("companies").update(w.company.id, { "managers-": second.user.id });
    await second.pb.collection("users").delete(second.user.id);
    const log = await w.manager.pb.collection("audit_log").getFullList({ filter: w.manager.pb.filter("company = {:c}", { c: w.company.id }) });
    expect(log).toEqual([expect.objectContaining({ action: "export", actor: "", candidateId: w.candidate.id })]);
  });
});
