// Who may ask for a failed transcript again (POST /api/screenroom/video-answers/{id}/transcript/retry,
// server/internal/takes/transcript_retry.go): the verified managers of the answer's job, and nobody else: not another
// company's manager, a manager removed from the company, an account that is no longer verified, an invitee, a user
// without a company, the candidate who recorded it (by its key), a superuser's session (operators requeue with
// `npm run requeue`), nor anyone anonymous. Each refusal answers as an unknown id does and leaves the stored answer
// as it was. Nobody but a superuser sets the transcript's state through the records API or a batch either.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerVideo, keyOf, pbUrl, signUp, superuser, uniqueEmail, world } from "./helpers";
import { coManagerOf } from "./support";

const NOT_FOUND = { status: 404, message: "The requested resource wasn't found.", data: {} };
const FAILED = { transcriptStatus: "failed", transcriptFailure: "timed_out", transcriptError: "downloading: no answer within 30 s", transcriptAttempts: 3 };

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let su: PocketBase;
let video: RecordModel;
let noCompany: Awaited<ReturnType<typeof signUp>>;
let invitee: Awaited<ReturnType<typeof signUp>>;
let removed: Awaited<ReturnType<typeof signUp>>;
let unverified: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  a = await world("retry-matrix-a");
  b = await world("retry-matrix-b");
  su = await superuser();
  video = (await answerVideo(a.candidate.id, a.video.question.id)).kind;
  noCompany = await signUp({ email: uniqueEmail("retry-nocompany") });
  invitee = await signUp({ email: uniqueEmail("retry-invitee") });
  await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: invitee.user.email });
  unverified = await coManagerOf(a, "retry-unverified");
  await su.collection("users").update(unverified.user.id, { verified: false });
  removed = await coManagerOf(a, "retry-removed");
  await a.manager.pb.collection("companies").update(a.company.id, { "managers-": removed.user.id });
});

async function retry(id: string, headers: Record<string, string>) {
  const res = await fetch(`${pbUrl()}/api/screenroom/video-answers/${encodeURIComponent(id)}/transcript/retry`, { method: "POST", headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function storedState(id: string) {
  const record = await su.collection("video_answers").getOne(id);
  return {
    transcriptStatus: record.transcriptStatus,
    transcriptFailure: record.transcriptFailure,
    transcriptError: record.transcriptError,
    transcriptAttempts: record.transcriptAttempts,
  };
}

describe("POST /api/screenroom/video-answers/{id}/transcript/retry", () => {
  const refused: [string, () => Promise<Record<string, string>>][] = [
    ["anonymous", async () => ({})],
    ["the candidate who recorded it, with its key", async () => ({ "X-Candidate-Key": (await keyOf(a.candidate.id))! })],
    ["the candidate's key as the session", async () => ({ Authorization: (await keyOf(a.candidate.id))! })],
    ["another company's manager", async () => ({ Authorization: b.manager.pb.authStore.token })],
    ["a user without a company", async () => ({ Authorization: noCompany.pb.authStore.token })],
    ["an invitee of A's company", async () => ({ Authorization: invitee.pb.authStore.token })],
    ["A's manager whose address is no longer verified", async () => ({ Authorization: unverified.pb.authStore.token })],
    ["a manager removed from A's company", async () => ({ Authorization: removed.pb.authStore.token })],
    ["a superuser's session", async () => ({ Authorization: su.authStore.token })],
  ];

  it.each(refused)("refuses %s as an unknown id, and the transcript stays failed", async (_who, headers) => {
    await su.collection("video_answers").update(video.id, FAILED);
    expect(await retry(video.id, await headers())).toEqual({ status: 404, body: NOT_FOUND });
    expect(await storedState(video.id)).toEqual(FAILED);
  });

  it("answers an unknown id as it answers those", async () => {
    expect(await retry("nosuchanswer123", { Authorization: a.manager.pb.authStore.token })).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("lets A's manager ask again: pending, no attempt, no reason", async () => {
    await su.collection("video_answers").update(video.id, FAILED);
    const res = await retry(video.id, { Authorization: a.manager.pb.authStore.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: video.id, transcriptStatus: "pending", transcriptAttempts: 0, transcriptFailure: "" });
    expect(res.body).not.toHaveProperty("transcriptError"); // the operator's words stay hidden
    expect(await storedState(video.id)).toEqual({ transcriptStatus: "pending", transcriptFailure: "", transcriptError: "", transcriptAttempts: 0 });
  });

  it("refuses A's manager an answer that has not failed, saying what it is, and changes nothing", async () => {
    for (const [status, words] of [
      ["pending", "This transcript is still being made: there is nothing to try again yet."],
      ["done", "This answer already has its transcript: there is nothing to try again."],
      ["language_unsupported", "Transcripts in this language need the Whisper-compatible endpoint: trying again would not make one."],
    ] as const) {
      await su.collection("video_answers").update(video.id, { transcriptStatus: status, transcriptAttempts: 2, transcriptFailure: "" });
      const res = await retry(video.id, { Authorization: a.manager.pb.authStore.token });
      expect(res).toEqual({
        status: 400,
        body: { status: 400, message: words, data: { transcriptStatus: { code: "validation_not_failed", message: words } } },
      });
      expect(await storedState(video.id)).toMatchObject({ transcriptStatus: status, transcriptAttempts: 2 });
    }
  });
});

describe("the transcript's state through the records API", () => {
  const writers: [string, () => Promise<Record<string, string>>][] = [
    ["A's manager", async () => ({ Authorization: a.manager.pb.authStore.token })],
    ["the candidate, with its key", async () => ({ "X-Candidate-Key": (await keyOf(a.candidate.id))! })],
    ["anonymous", async () => ({})],
  ];

  it.each(writers)("is not set by %s, directly or in a batch", async (_who, headers) => {
    await su.collection("video_answers").update(video.id, FAILED);
    const body = { transcriptStatus: "pending", transcriptAttempts: 0, transcriptFailure: "", transcriptError: "" };
    const direct = await fetch(`${pbUrl()}/api/collections/video_answers/records/${video.id}`, {
      method: "PATCH",
      headers: { ...(await headers()), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect([403, 404]).toContain(direct.status);
    const batch = await fetch(`${pbUrl()}/api/batch`, {
      method: "POST",
      headers: { ...(await headers()), "Content-Type": "application/json" },
      body: JSON.stringify({ requests: [{ method: "PATCH", url: `/api/collections/video_answers/records/${video.id}`, body }] }),
    });
    expect(batch.status).toBeGreaterThanOrEqual(400);
    expect(await storedState(video.id)).toEqual(FAILED);
  });
});
