// POST /api/screenroom/answers (server/internal/answers): the candidate's answer and its kind record in one
// plain multipart request and one transaction, under the collections' own create rules, with the collection API's
// error shape (400, data.{field}.message) that the interview screens show.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  answerText,
  asCandidate,
  errorOf,
  fixture,
  pngFile,
  postAnswer,
  randomId,
  signUp,
  statusOf,
  webmFile,
  newCandidateOf,
  world,
} from "./helpers";
import { admin, answersOf, chars, countOf, mp4File, storedOrNull, textFile } from "./support";

let w: Awaited<ReturnType<typeof world>>;
let other: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  w = await world("route");
  other = await world("route-other");
});

const newCandidate = () => newCandidateOf(w, "route-candidate");

/** A valid WebM (the fixture) padded with zero bytes to exactly `size` bytes. */
function webmOfSize(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set(fixture("answer.webm"));
  return new File([bytes], "answer.webm", { type: "video/webm" });
}

describe("a candidate answering through the route", () => {
  it("stores a video answer with the client's id and its video record, and the manager gets the same file back", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const res = await postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id, file: webmFile() });
    expect(res.answer.id).toBe(id);
    expect(res.kind).toBe("video_answers");

    const answer = await storedOrNull("answers", id);
    expect(answer).toMatchObject({ candidate, question: w.video.question.id });
    const su = await admin();
    const video = await su.collection("video_answers").getFirstListItem(su.filter("answer = {:a}", { a: id }));
    expect(video.id).toBe(res.record.id);
    expect(video).toMatchObject({ mimeType: "video/webm", transcriptStatus: "pending", transcript: "", durationSeconds: 0 });

    const token = await w.manager.pb.files.getToken();
    const served = await fetch(w.manager.pb.files.getURL(video, video.file as string, { token }));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(fixture("answer.webm"))).toBe(true);
    // the candidate reads its answer back (what the upload queue checks after a lost response)
    expect((await asCandidate(candidate).collection("answers").getOne(id)).id).toBe(id);
  });

  it("stores an mp4 answer as video/mp4", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    await postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id, file: mp4File() });
    expect(await countOf("video_answers", "answer = {:a} && mimeType = 'video/mp4'", { a: id })).toBe(1);
  });

  it("stores a text answer and its text record", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const res = await postAnswer(asCandidate(candidate), { id, candidate, question: w.text.question.id, content: "I like people." });
    expect(res.kind).toBe("text_answers");
    expect(await storedOrNull("answers", id)).toMatchObject({ candidate, question: w.text.question.id });
    expect(await countOf("text_answers", "answer = {:a} && content = 'I like people.'", { a: id })).toBe(1);
  });

  it("ignores what only the media worker may write", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    await postAnswer(asCandidate(candidate), {
      id,
      candidate,
      question: w.video.question.id,
      file: webmFile(),
      transcript: "I am the best candidate",
      transcriptStatus: "done",
      transcriptAttempts: "3",
      durationSeconds: "999",
    });
    const su = await admin();
    const video = await su.collection("video_answers").getFirstListItem(su.filter("answer = {:a}", { a: id }));
    expect(video).toMatchObject({ transcript: "", transcriptStatus: "pending", transcriptAttempts: 0, durationSeconds: 0 });
  });

  it("accepts a 150 MB video, far above PocketBase's default 32 MB body limit", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    await postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id, file: webmOfSize(150 * 1024 * 1024) });
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(1);
  });
});

describe("the route refuses, and leaves no answer behind", () => {
  /** Expects a 400 whose data.{field}.message is what the interview screens show; returns that message. */
  async function refusedOn(call: () => Promise<unknown>, field: string) {
    const err = await errorOf(call);
    const shown = `${err.status} ${JSON.stringify(err.response)}`;
    expect(err.status, shown).toBe(400);
    expect(typeof err.response?.data?.[field]?.message, shown).toBe("string");
    return err.response.data[field].message as string;
  }

  it("a video just over 150 MB, with the file field's size message (not a bare 413)", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const file = webmOfSize(150 * 1024 * 1024 + 1);
    const message = await refusedOn(() => postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id, file }), "file");
    expect(message).toMatch(/size|large/i);
    expect(await storedOrNull("answers", id)).toBeNull();
  });

  it.each([
    ["a PNG image", () => pngFile("answer.png")],
    ["a PNG renamed .webm", () => new File([pngFile().slice()], "answer.webm", { type: "video/webm" })],
    ["a text file", () => textFile("answer.txt")],
  ])("%s as a video", async (_what, file) => {
    const candidate = await newCandidate();
    const id = randomId();
    await refusedOn(() => postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id, file: file() }), "file");
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await answersOf(candidate)).toBe(0);
  });

  it("a video answer without its file", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    await refusedOn(() => postAnswer(asCandidate(candidate), { id, candidate, question: w.video.question.id }), "file");
    expect(await storedOrNull("answers", id)).toBeNull();
  });

  it.each([0, 1001])("a text answer of %i characters (its text record fails: the answer is rolled back)", async (n) => {
    const candidate = await newCandidate();
    const id = randomId();
    const content = chars(n, "x");
    await refusedOn(() => postAnswer(asCandidate(candidate), { id, candidate, question: w.text.question.id, content }), "content");
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await answersOf(candidate)).toBe(0);
  });

  it("a text answer to a video question, and a video answer to a text question (rule 9)", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const textId = randomId();
    expect(await refusedOn(() => postAnswer(pb, { id: textId, candidate, question: w.video.question.id, content: "Hi" }), "answer")).toBe(
      "This question does not take a text answer.",
    );
    const videoId = randomId();
    expect(
      await refusedOn(() => postAnswer(pb, { id: videoId, candidate, question: w.text.question.id, file: webmFile() }), "answer"),
    ).toBe("This question does not take a video answer.");
    expect(await answersOf(candidate)).toBe(0);
    expect(await countOf("video_answers", "answer.candidate = {:c}", { c: candidate })).toBe(0);
    expect(await countOf("text_answers", "answer.candidate = {:c}", { c: candidate })).toBe(0);
  });

  it("a second answer to the same question, with the message the screens show", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    await postAnswer(pb, { id: randomId(), candidate, question: w.text.question.id, content: "First" });
    const second = randomId();
    expect(await refusedOn(() => postAnswer(pb, { id: second, candidate, question: w.text.question.id, content: "Second" }), "question")).toBe(
      "This question has already been answered.",
    );
    expect(await storedOrNull("answers", second)).toBeNull();
    expect(await countOf("text_answers", "answer.candidate = {:c}", { c: candidate })).toBe(1);
  });

  it("a retry with the same id (the first response was lost): still one answer and one video record", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const send = () => postAnswer(pb, { id, candidate, question: w.video.question.id, file: webmFile() });
    await send();
    expect(await statusOf(send)).toBe(400);
    expect(await answersOf(candidate)).toBe(1);
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(1);
    // what the upload queue then checks: the answer is there, so the retry counts as done
    expect((await pb.collection("answers").getOne(id)).question).toBe(w.video.question.id);
  });

  it("without the candidate header, and with another candidate's header", async () => {
    const candidate = await newCandidate();
    const otherCandidate = await newCandidate();
    for (const pb of [anonymous(), asCandidate(otherCandidate)]) {
      const id = randomId();
      const status = await statusOf(() => postAnswer(pb, { id, candidate, question: w.text.question.id, content: "Not mine" }));
      expect(status).toBe(400);
      expect(await storedOrNull("answers", id)).toBeNull();
    }
    expect(await answersOf(candidate)).toBe(0);
    expect(await answersOf(otherCandidate)).toBe(0);
  });

  it("a question that is not in the candidate's job", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const status = await statusOf(() =>
      postAnswer(asCandidate(candidate), { id, candidate, question: other.video.question.id, file: webmFile() }),
    );
    expect(status).toBe(400);
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(0);
  });

  it("managers (the job's own, another company's) and signed-in users without the candidate header", async () => {
    const candidate = await newCandidate();
    const stranger = await signUp();
    for (const pb of [w.manager.pb, other.manager.pb, stranger.pb]) {
      const id = randomId();
      const status = await statusOf(() => postAnswer(pb, { id, candidate, question: w.text.question.id, content: "Forged" }));
      expect([400, 403]).toContain(status);
      expect(await storedOrNull("answers", id)).toBeNull();
    }
    expect(await answersOf(candidate)).toBe(0);
  });

  it("an answer already given through the collection API", async () => {
    const candidate = await newCandidate();
    await answerText(candidate, w.text.question.id, "Given before");
    const id = randomId();
    expect(await statusOf(() => postAnswer(asCandidate(candidate), { id, candidate, question: w.text.question.id, content: "Again" }))).toBe(400);
    expect(await answersOf(candidate)).toBe(1);
  });
});
