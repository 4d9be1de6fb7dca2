// Captions and transcript downloads (server/internal/review/captions.go): the WebVTT file made from the media
// worker's timed segments, word for word, and the transcript as text; none for an answer without a finished, timed
// transcript; the same files through a live share link, which the shared page names only when they exist.
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, newCandidateOf, superuser, world } from "./helpers";
import { SEGMENTS, TRANSCRIPT, VTT, fetchSharedTranscript, fetchTranscript } from "./captions-support";
import { createLink, openShared } from "./share-link-support";

let a: Awaited<ReturnType<typeof world>>;
let transcribed: { answer: RecordModel; kind: RecordModel };
let token: string;

/** A fresh candidate of A's job with a video answer, as the worker left it. */
async function videoAnswerWith(fields: Record<string, unknown>) {
  const candidate = await newCandidateOf(a, "captions");
  const made = await answerVideo(candidate, a.video.question.id);
  await (await superuser()).collection("video_answers").update(made.kind.id, fields);
  return { candidate, ...made };
}

beforeAll(async () => {
  a = await world("captions");
  await a.manager.pb.collection("questions").update(a.video.question.id, { title: "Introduce yourself, please?" });
  transcribed = await answerVideo(a.candidate.id, a.video.question.id);
  await answerText(a.candidate.id, a.text.question.id, "Text answers have no captions.");
  await (await superuser()).collection("video_answers").update(transcribed.kind.id, {
    transcriptStatus: "done",
    transcript: TRANSCRIPT,
    transcriptSegments: SEGMENTS,
  });
  token = a.manager.pb.authStore.token;
});

describe("the WebVTT file", () => {
  it("has one cue per stored segment, its words as said (markup escaped), and is never cached", async () => {
    const res = await fetchTranscript(transcribed.kind.id, "captions.vtt", { auth: token });
    expect(res.status).toBe(200);
    expect(res.text).toBe(VTT);
    expect(res.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBeNull();
  });

  it("comes as an attachment named after the question when downloaded, with a file token as a link sends it", async () => {
    const res = await fetchTranscript(transcribed.kind.id, "captions.vtt", { fileToken: await a.manager.pb.files.getToken(), download: true });
    expect(res.status).toBe(200);
    expect(res.text).toBe(VTT);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Introduce yourself, please transcript.vtt"');
  });
});

describe("the text transcript", () => {
  it("is the worker's text, downloadable", async () => {
    const res = await fetchTranscript(transcribed.kind.id, "transcript.txt", { auth: token, download: true });
    expect(res.status).toBe(200);
    expect(res.text).toBe(`${TRANSCRIPT}\n`);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Introduce yourself, please transcript.txt"');
  });
});

describe("an answer without a timed transcript has no captions, and no words are made up", () => {
  const cases: [string, Record<string, unknown>, { captions: boolean; text: string | null }][] = [
    ["pending", { transcriptStatus: "pending" }, { captions: false, text: null }],
    ["failed", { transcriptStatus: "failed", transcriptError: "ffmpeg failed" }, { captions: false, text: null }],
    [
      "in a language the engine does not know",
      { transcriptStatus: "language_unsupported", transcript: "", transcriptSegments: null },
      { captions: false, text: null },
    ],
    // an answer transcribed before timed segments existed: its text, no captions
    ["done without times", { transcriptStatus: "done", transcript: "Only the words", transcriptSegments: null }, { captions: false, text: "Only the words\n" }],
    ["done, no speech found", { transcriptStatus: "done", transcript: "", transcriptSegments: [] }, { captions: false, text: null }],
    // words stored by an earlier attempt are not shown once the answer's state says there is no transcript
    ["failed after words were stored", { transcriptStatus: "failed", transcript: TRANSCRIPT, transcriptSegments: SEGMENTS }, { captions: false, text: null }],
  ];
  it.each(cases)("%s", async (_name, fields, expected) => {
    const { kind } = await videoAnswerWith(fields);
    const captions = await fetchTranscript(kind.id, "captions.vtt", { auth: token });
    expect({ status: captions.status, body: JSON.parse(captions.text) as unknown }).toEqual({
      status: 404,
      body: { status: 404, message: "This answer has no captions.", data: {} },
    });
    const text = await fetchTranscript(kind.id, "transcript.txt", { auth: token });
    if (expected.text === null) {
      expect({ status: text.status, body: JSON.parse(text.text) as unknown }).toEqual({
        status: 404,
        body: { status: 404, message: "This answer has no transcript.", data: {} },
      });
    } else {
      expect({ status: text.status, text: text.text }).toEqual({ status: 200, text: expected.text });
    }
  });
});

describe("through a share link", () => {
  it("serves the same files, and the shared page names them only where they exist", async () => {
    const link = await createLink(a.manager.pb, { candidate: a.candidate.id });
    expect(await fetchSharedTranscript(link.token, transcribed.kind.id, "captions.vtt")).toMatchObject({ status: 200, text: VTT });
    const download = await fetchSharedTranscript(link.token, transcribed.kind.id, "transcript.txt", { download: true });
    expect(download).toMatchObject({ status: 200, text: `${TRANSCRIPT}\n` });
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="Introduce yourself, please transcript.txt"');

    const page = (await openShared(link.token)).body as { questions: { answer: Record<string, unknown> | null }[] };
    const video = page.questions.map((q) => q.answer).find((answer) => answer?.kind === "video");
    expect(video).toMatchObject({
      captionsUrl: `/api/screenroom/shared/${link.token}/videos/${transcribed.kind.id}/captions.vtt`,
      transcriptUrl: `/api/screenroom/shared/${link.token}/videos/${transcribed.kind.id}/transcript.txt`,
      language: "en",
    });

    const pending = await videoAnswerWith({ transcriptStatus: "language_unsupported", transcript: "", transcriptSegments: null });
    const pendingLink = await createLink(a.manager.pb, { candidate: pending.candidate });
    const pendingPage = (await openShared(pendingLink.token)).body as { questions: { answer: Record<string, unknown> | null }[] };
    const pendingVideo = pendingPage.questions.map((q) => q.answer).find((answer) => answer?.kind === "video");
    expect(pendingVideo).toMatchObject({ transcriptStatus: "language_unsupported" });
    expect(pendingVideo).not.toHaveProperty("captionsUrl");
    expect(pendingVideo).not.toHaveProperty("transcriptUrl");
    expect((await fetchSharedTranscript(pendingLink.token, pending.kind.id, "captions.vtt")).status).toBe(404);
  });
});
