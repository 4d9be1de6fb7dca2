// The captions routes and the comparison's reads as an attacker sees them (server/internal/review/captions.go,
// review.go): another company's answer by its id, ids of anything else, tokens that are not a file token of a manager
// of the answer's company, a share link pointed at another candidate's answer, a question title written to break the
// download's header, and the comparison asking for another company's candidates. Every refusal answers as an unknown
// id does, so nothing says what exists elsewhere.
import type { RecordModel } from "pocketbase";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, keyOf, statusOf, superuser, world } from "../helpers";
import { SEGMENTS, TRANSCRIPT, fetchSharedTranscript, fetchTranscript, type TranscriptFile } from "../captions-support";
import { createLink } from "../share-link-support";

const FILES: TranscriptFile[] = ["captions.vtt", "transcript.txt"];
const NOT_FOUND = { status: 404, message: "The requested resource wasn't found.", data: {} };
const transcribed = { transcriptStatus: "done", transcript: TRANSCRIPT, transcriptSegments: SEGMENTS };

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let video: { answer: RecordModel; kind: RecordModel };
let text: { answer: RecordModel; kind: RecordModel };
let otherCompanyVideo: { answer: RecordModel; kind: RecordModel };

beforeAll(async () => {
  a = await world("captions-attack-a");
  b = await world("captions-attack-b");
  video = await answerVideo(a.candidate.id, a.video.question.id);
  text = await answerText(a.candidate.id, a.text.question.id);
  otherCompanyVideo = await answerVideo(b.candidate.id, b.video.question.id);
  const su = await superuser();
  for (const id of [video.kind.id, otherCompanyVideo.kind.id]) await su.collection("video_answers").update(id, transcribed);
});

describe("the captions routes", () => {
  it("A's manager reads no other company's answer, and an id of anything else answers as an unknown one", async () => {
    const auth = a.manager.pb.authStore.token;
    const unknown = await fetchTranscript("nosuchvideo0000", "captions.vtt", { auth });
    expect({ status: unknown.status, body: JSON.parse(unknown.text) as unknown }).toEqual({ status: 404, body: NOT_FOUND });
    const ids = [otherCompanyVideo.kind.id, otherCompanyVideo.answer.id, video.answer.id, text.kind.id, text.answer.id, a.candidate.id, "%2e%2e", "a%2Fb", "' OR 1=1 --"];
    for (const id of ids) {
      for (const file of FILES) {
        for (const download of [false, true]) {
          const res = await fetchTranscript(id, file, { auth, download });
          expect({ id, file, status: res.status, text: res.text }).toEqual({ id, file, status: 404, text: unknown.text });
          expect(res.headers.get("content-disposition")).toBeNull();
        }
      }
    }
    // B's own manager reads it, by session or file token: the refusal above is about A
    expect((await fetchTranscript(otherCompanyVideo.kind.id, "captions.vtt", { auth: b.manager.pb.authStore.token })).status).toBe(200);
    expect((await fetchTranscript(otherCompanyVideo.kind.id, "captions.vtt", { fileToken: await b.manager.pb.files.getToken() })).status).toBe(200);
  });

  it("takes no share token, stored hash, candidate key, session token or forged token as a file token", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const forged = [
      link.token,
      createHash("sha256").update(link.token).digest("hex"),
      (await keyOf(a.candidate.id))!,
      a.manager.pb.authStore.token,
      // a file token signed with no secret of the server's
      `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url")}.${Buffer.from(
        JSON.stringify({ id: a.manager.user.id, type: "file", collectionId: "_pb_users_auth_", exp: 4102444800 }),
      ).toString("base64url")}.c2lnbmF0dXJl`,
      "",
    ];
    for (const fileToken of forged) {
      for (const file of FILES) {
        expect({ fileToken, file, status: (await fetchTranscript(video.kind.id, file, { fileToken })).status }).toEqual({ fileToken, file, status: 404 });
      }
    }
    // the manager's own file token does
    expect((await fetchTranscript(video.kind.id, "captions.vtt", { fileToken: await a.manager.pb.files.getToken() })).status).toBe(200);
  });

  it("a share link reaches only its own candidate's answers, whichever company's id it is given", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const unknown = await fetchSharedTranscript(link.token, "nosuchvideo0000", "captions.vtt");
    for (const id of [otherCompanyVideo.kind.id, otherCompanyVideo.answer.id, video.answer.id, text.kind.id]) {
      for (const file of FILES) {
        const res = await fetchSharedTranscript(link.token, id, file, { download: true });
        expect({ id, file, status: res.status, text: res.text }).toEqual({ id, file, status: 404, text: unknown.text });
      }
    }
  });

  it("a question title written to break the download's header gives one attachment header, its characters kept safe", async () => {
    const question = await a.manager.pb.collection("questions").create({
      company: a.company.id,
      title: 'Why "us"; filename=evil.exe? Zoë',
      description: "Tell us",
      timeout: 60,
      canPreview: true,
    });
    await a.manager.pb.collection("video_questions").create({ question: question.id, takes: 1 });
    await a.manager.pb.collection("jobs").update(a.job.id, { "questions+": question.id });
    const answered = await answerVideo(a.candidate.id, question.id);
    await (await superuser()).collection("video_answers").update(answered.kind.id, transcribed);
    const res = await fetchTranscript(answered.kind.id, "captions.vtt", { auth: a.manager.pb.authStore.token, download: true });
    expect(res.status).toBe(200);
    // only letters, digits and a few marks survive; the rest is a space, so no quote or semicolon reaches the header
    expect(res.headers.get("content-disposition")).toBe("attachment; filename*=utf-8''Why%20us%20filename%20evil.exe%20Zo%C3%AB%20transcript.vtt");
    // a line break is refused where the title is written
    expect(
      await statusOf(() => a.manager.pb.collection("questions").update(question.id, { title: "Line\r\nSet-Cookie: x=1" })),
    ).toBe(400);
  });
});

describe("the comparison's reads", () => {
  it("give A's manager nothing of B's candidates: not the review, not its ratings", async () => {
    const rating = await b.manager.pb.collection("ratings").create({ answer: otherCompanyVideo.answer.id, candidate: b.candidate.id, manager: b.manager.user.id, stars: 5 });
    const review = await statusOf(() => a.manager.pb.send(`/api/screenroom/reviews/${b.candidate.id}`, { method: "GET" }));
    const unknown = await statusOf(() => a.manager.pb.send("/api/screenroom/reviews/nosuchcandidate", { method: "GET" }));
    expect({ review, unknown }).toEqual({ review: 404, unknown: 404 });
    const ratings = await a.manager.pb.collection("ratings").getFullList({ filter: a.manager.pb.filter("candidate = {:c}", { c: b.candidate.id }) });
    expect(ratings).toEqual([]);
    expect(await statusOf(() => a.manager.pb.collection("ratings").getOne(rating.id))).toBe(404);
    // B's manager reads their own
    expect(await statusOf(() => b.manager.pb.send(`/api/screenroom/reviews/${b.candidate.id}`, { method: "GET" }))).toBe(200);
  });
});
