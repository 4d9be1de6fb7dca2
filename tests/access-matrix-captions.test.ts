// Who reads a video answer's captions and transcript (server/internal/review/captions.go): exactly who may fetch its
// video file. The managers of the candidate's company (by their session or a file token) and the holder of a live
// share link to that candidate; nobody else: not another company's manager, a manager removed from the company, an
// account that is no longer verified, an invitee, the candidate who recorded it, nor anyone anonymous; not through a
// revoked or expired link, nor a link to another candidate. Each refusal answers as an unknown id does.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, keyOf, newCandidateOf, signUp, superuser, uniqueEmail, world } from "./helpers";
import { SEGMENTS, TRANSCRIPT, VTT, fetchSharedTranscript, fetchTranscript, type TranscriptFile } from "./captions-support";
import { createLink, revokeLink, type CreatedLink } from "./share-link-support";
import { coManagerOf } from "./support";

const FILES: TranscriptFile[] = ["captions.vtt", "transcript.txt"];
const BODY: Record<TranscriptFile, string> = { "captions.vtt": VTT, "transcript.txt": `${TRANSCRIPT}\n` };
const NOT_FOUND = { status: 404, message: "The requested resource wasn't found.", data: {} };

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
/** A's candidate's transcribed video answer, and its text answer */
let video: { answer: RecordModel; kind: RecordModel };
let text: { answer: RecordModel; kind: RecordModel };
/** B's candidate's transcribed video answer */
let otherCompanyVideo: { answer: RecordModel; kind: RecordModel };
/** a second candidate of A's job, and their transcribed video answer */
let second: { id: string; video: { answer: RecordModel; kind: RecordModel } };
let noCompany: Awaited<ReturnType<typeof signUp>>;
let invitee: Awaited<ReturnType<typeof signUp>>;
let removed: Awaited<ReturnType<typeof signUp>>;
let removedFileToken: string;
let unverified: Awaited<ReturnType<typeof signUp>>;
let removedLink: CreatedLink;

const transcribed = { transcriptStatus: "done", transcript: TRANSCRIPT, transcriptSegments: SEGMENTS };

beforeAll(async () => {
  a = await world("captions-matrix-a");
  b = await world("captions-matrix-b");
  su = await superuser();
  video = await answerVideo(a.candidate.id, a.video.question.id);
  text = await answerText(a.candidate.id, a.text.question.id);
  otherCompanyVideo = await answerVideo(b.candidate.id, b.video.question.id);
  const secondId = await newCandidateOf(a, "captions-second");
  second = { id: secondId, video: await answerVideo(secondId, a.video.question.id) };
  for (const id of [video.kind.id, otherCompanyVideo.kind.id, second.video.kind.id]) await su.collection("video_answers").update(id, transcribed);

  noCompany = await signUp({ email: uniqueEmail("captions-nocompany") });
  invitee = await signUp({ email: uniqueEmail("captions-invitee") });
  await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: invitee.user.email });
  // a manager of A whose address is no longer confirmed, still holding a valid session
  unverified = await coManagerOf(a, "captions-unverified");
  await su.collection("users").update(unverified.user.id, { verified: false });
  // a manager of A who made a link and kept a file token, then was removed
  removed = await coManagerOf(a, "captions-removed");
  removedLink = await createLink(removed.pb, { candidate: a.candidate.id });
  removedFileToken = await removed.pb.files.getToken();
  expect((await fetchSharedTranscript(removedLink.token, video.kind.id, "captions.vtt")).status).toBe(200);
  expect((await fetchTranscript(video.kind.id, "captions.vtt", { fileToken: removedFileToken })).status).toBe(200);
  await a.manager.pb.collection("companies").update(a.company.id, { "managers-": removed.user.id });
});

type Request = { auth?: string; fileToken?: string; headers?: Record<string, string> };

describe.each(FILES)("GET /api/screenroom/video-answers/{id}/%s", (file) => {
  const actors: [string, boolean, () => Promise<Request>][] = [
    ["A's manager, signed in", true, async () => ({ auth: a.manager.pb.authStore.token })],
    ["A's manager, with a file token", true, async () => ({ fileToken: await a.manager.pb.files.getToken() })],
    ["a superuser", true, async () => ({ auth: su.authStore.token })],
    ["anonymous", false, async () => ({})],
    ["the candidate who recorded it, with its key", false, async () => ({ headers: { "X-Candidate-Key": (await keyOf(a.candidate.id))! } })],
    ["the candidate's key as the file token", false, async () => ({ fileToken: (await keyOf(a.candidate.id))! })],
    ["another company's manager, signed in", false, async () => ({ auth: b.manager.pb.authStore.token })],
    ["another company's manager, with their file token", false, async () => ({ fileToken: await b.manager.pb.files.getToken() })],
    ["a user without a company", false, async () => ({ auth: noCompany.pb.authStore.token })],
    ["an invitee of A's company", false, async () => ({ auth: invitee.pb.authStore.token })],
    ["A's manager whose address is no longer verified", false, async () => ({ auth: unverified.pb.authStore.token })],
    ["a manager removed from A's company, signed in", false, async () => ({ auth: removed.pb.authStore.token })],
    ["a manager removed from A's company, with a file token from before", false, async () => ({ fileToken: removedFileToken })],
    ["A's manager's session token passed as a file token", false, async () => ({ fileToken: a.manager.pb.authStore.token })],
  ];
  it.each(actors)("as %s", async (_who, allowed, request) => {
    const res = await fetchTranscript(video.kind.id, file, { ...(await request()), download: true });
    if (allowed) {
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: BODY[file] });
    } else {
      expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({ status: 404, body: NOT_FOUND });
      expect(res.headers.get("content-disposition")).toBeNull();
    }
  });
});

describe.each(FILES)("GET /api/screenroom/shared/{token}/videos/{id}/%s", (file) => {
  it("opens with a live link to the candidate", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    expect(await fetchSharedTranscript(link.token, video.kind.id, file)).toMatchObject({ status: 200, text: BODY[file] });
  });

  it("is refused once the link is revoked, as its page and video are", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    await revokeLink(a.manager.pb, link.link.id);
    const res = await fetchSharedTranscript(link.token, video.kind.id, file);
    expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
      status: 410,
      body: { status: 410, message: "This link was revoked.", data: {} },
    });
  });

  it("is refused once the link has expired", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id, expiresInDays: 1 });
    await su.collection("share_links").update(link.link.id, { expiresAt: new Date().toISOString() });
    const res = await fetchSharedTranscript(link.token, video.kind.id, file);
    expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
      status: 410,
      body: { status: 410, message: "This link has expired.", data: {} },
    });
  });

  it("is refused through a link made by a manager since removed", async () => {
    expect((await fetchSharedTranscript(removedLink.token, video.kind.id, file)).status).toBe(410);
  });

  it("reaches no other candidate's answer: of the same job, or another company", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    const unknown = await fetchSharedTranscript(link.token, "nosuchvideo0000", file);
    expect(unknown.status).toBe(404);
    for (const id of [second.video.kind.id, otherCompanyVideo.kind.id, video.answer.id, text.kind.id, a.candidate.id]) {
      const res = await fetchSharedTranscript(link.token, id, file);
      expect({ id, status: res.status, text: res.text }).toEqual({ id, status: 404, text: unknown.text });
    }
    // B's link does not reach A's answer either
    const bLink = await createLink(b.manager.pb, { candidate: b.candidate.id });
    expect((await fetchSharedTranscript(bLink.token, video.kind.id, file)).status).toBe(404);
    expect((await fetchSharedTranscript(bLink.token, otherCompanyVideo.kind.id, file)).status).toBe(200);
  });
});
