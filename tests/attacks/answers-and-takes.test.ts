// Security issue 13, findings 5 and 6, as the attacker sends them. 5: after a question was answered with a whole file
// under another id, the earlier staged take still took parts (136 MiB more) until the daily sweep, and eight parallel
// submits of one 30 MiB take peaked the staging folder at 270 MiB. 6: `video_answers` kept a client-sent mimeType
// (text/html), and a bare `answers` record with no kind record counted its question as answered.
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { asCandidate, fixture, newCandidateOf, postAnswer, putPart, randomId, statusOf, webmFile, world } from "../helpers";
import { countOf, entriesOf, storedOrNull } from "../support";

let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world("attack-answers");
});

const webm = () => new Uint8Array(fixture("answer.webm"));

function submitTake(pb: PocketBase, take: string, size: number) {
  return pb.send("/api/screenroom/answers", {
    method: "POST",
    body: { id: take, staged: true, size, fileName: "answer.webm", question: w.video.question.id },
  });
}

describe("staged takes of an answered question", () => {
  it("take no more parts once the question is answered under another id, and no new take starts", async () => {
    const candidate = await newCandidateOf(w, "answered-take");
    const pb = asCandidate(candidate);
    const take = randomId();
    await putPart(pb, take, 0, webm().subarray(0, 1000), w.video.question.id);
    await postAnswer(pb, { id: randomId(), question: w.video.question.id, file: webmFile() });

    // the earlier take: retired with the answer
    expect(await statusOf(() => putPart(pb, take, 1000, webm().subarray(1000, 2000), w.video.question.id))).toBe(409);
    // a take started afterwards
    expect(await statusOf(() => putPart(pb, randomId(), 0, webm().subarray(0, 1000), w.video.question.id))).toBe(400);
    expect(await countOf("staged_takes", "candidate = {:c} && retired = false", { c: candidate })).toBe(0);
  });

  it("make one answer of eight parallel submits of one take, joined one at a time, the others refused", async () => {
    const candidate = await newCandidateOf(w, "parallel-submits");
    const pb = asCandidate(candidate);
    const take = randomId();
    // a take big enough that joining it takes a while: the real fixture, padded to 24 MB in two parts
    const bytes = new Uint8Array(24 * 1024 * 1024);
    bytes.set(webm());
    await putPart(pb, take, 0, bytes.subarray(0, 12 * 1024 * 1024), w.video.question.id);
    await putPart(pb, take, 12 * 1024 * 1024, bytes.subarray(12 * 1024 * 1024), w.video.question.id);
    // Each join writes a copy of the take into a `.submit-*` dir beside its parts: watch how many exist at once.
    const dir = join(inject("pbDataDir"), "screenroom_takes", take);
    let most = 0;
    let watching = true;
    // the dir goes once the answer is stored: read once, its absence is none joining (entriesOf)
    const joiningNow = () => entriesOf(dir).filter((name) => name.startsWith(".submit-")).length;
    const watcher = (async () => {
      while (watching) {
        const joining = joiningNow();
        most = Math.max(most, joining);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const statuses = await Promise.all(Array.from({ length: 8 }, () => statusOf(() => submitTake(pb, take, bytes.length))));
    watching = false;
    await watcher;
    expect(most).toBeLessThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const status of statuses.filter((s) => s !== 200)) expect([400, 409]).toContain(status);
    expect(await countOf("answers", "candidate = {:c}", { c: candidate })).toBe(1);
    expect(await countOf("video_answers", "answer = {:a}", { a: take })).toBe(1);
  });
});

describe("answers are whole and typed by the server", () => {
  it("stores the type the server derives, never a client's mimeType", async () => {
    const candidate = await newCandidateOf(w, "mime-forger");
    const id = randomId();
    await postAnswer(asCandidate(candidate), { id, question: w.video.question.id, file: webmFile(), mimeType: "text/html" });
    expect(await countOf("video_answers", "answer = {:a} && mimeType = 'video/webm'", { a: id })).toBe(1);
  });

  it("refuses a bare answer, or a kind record, through the records API and the batch API", async () => {
    const candidate = await newCandidateOf(w, "bare-answer");
    const pb = asCandidate(candidate);
    const id = randomId();
    expect(await statusOf(() => pb.collection("answers").create({ id, candidate, question: w.text.question.id }))).toBe(400);
    const batch = pb.createBatch();
    batch.collection("answers").create({ id, candidate, question: w.text.question.id });
    expect(await statusOf(() => batch.send())).toBe(400);
    const both = pb.createBatch();
    both.collection("answers").create({ id, candidate, question: w.text.question.id });
    both.collection("text_answers").create({ answer: id, content: "Whole" });
    expect(await statusOf(() => both.send())).toBe(400);
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await countOf("answers", "candidate = {:c}", { c: candidate })).toBe(0);

    // the interview still counts nothing answered: the question is still open through the route
    await postAnswer(pb, { id: randomId(), question: w.text.question.id, content: "Answered properly" });
    expect(await countOf("answers", "candidate = {:c}", { c: candidate })).toBe(1);
  });
});
