// Issue 18 point 3: search across a company's transcripts and text answers (GET /api/screenroom/companies/{id}/search,
// migration 1733100000_answer_search.js). What a manager finds, in which company, and what nobody else reaches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, answerVideo, asCandidate, newCandidateOf, signUp, statusOf, superuser, uniqueEmail, useOwnServer, world } from "./helpers";
import type PocketBase from "pocketbase";

interface Hit {
  answer: string;
  kind: "text" | "video";
  candidate: { id: string; email: string };
  job: { id: string; title: string };
  question: { id: string; title: string };
  snippet: string;
  startSeconds: number | null;
}

const search = (pb: PocketBase, company: string, q: string) =>
  pb.send<{ items: Hit[]; more: boolean }>(`/api/screenroom/companies/${company}/search`, { query: { q } });

/** The highlighted words of a snippet. */
const marked = (snippet: string) => snippet.split("\u0002").slice(1).map((part) => part.split("\u0003")[0]);

/** A unique made-up word, so parallel suites on the shared server never find each other's answers. */
const word = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`.replace(/[0-9]/g, "q");

describe("transcript search", () => {
  it("finds a word in a text answer and in a transcript, with the candidate, job, question and a highlighted snippet", async () => {
    const w = await world("search");
    const topic = word("zorbex");
    const text = await answerText(w.candidate.id, w.text.question.id, `I once migrated a ${topic} cluster overnight without downtime.`);
    const other = await newCandidateOf(w, "search-video");
    const video = await answerVideo(other, w.video.question.id);
    // the media worker's write: the transcript and its timed segments
    const admin = await superuser();
    await admin.collection("video_answers").update(video.kind.id, {
      transcript: `Hello. Later I talk about the ${topic} project we shipped.`,
      transcriptSegments: [
        { start: 0, end: 1.5, text: "Hello." },
        { start: 4.25, end: 8, text: `Later I talk about the ${topic} project we shipped.` },
      ],
      transcriptStatus: "done",
    });

    const { items, more } = await search(w.manager.pb, w.company.id, topic);
    expect(more).toBe(false);
    expect(items.map((hit) => hit.answer).sort()).toEqual([text.answer.id, video.answer.id].sort());
    const textHit = items.find((hit) => hit.kind === "text")!;
    expect(textHit.candidate).toEqual({ id: w.candidate.id, email: w.candidate.email });
    expect(textHit.job).toEqual({ id: w.job.id, title: w.job.title });
    expect(textHit.question).toEqual({ id: w.text.question.id, title: w.text.question.title });
    expect(marked(textHit.snippet)).toEqual([topic]);
    expect(textHit.startSeconds).toBeNull();
    const videoHit = items.find((hit) => hit.kind === "video")!;
    expect(videoHit.startSeconds).toBe(4.25);
    expect(marked(videoHit.snippet)).toEqual([topic]);
  });

  it("matches other forms of a word, needs every word, and keeps a quoted phrase's order", async () => {
    const w = await world("search-forms");
    const name = word("quillon");
    const a = await answerText(w.candidate.id, w.text.question.id, `${name}: I enjoyed hiring engineers and mentoring them.`);
    const b = await answerText(await newCandidateOf(w, "forms-b"), w.text.question.id, `${name}: engineers hiring was not my job, mentoring was.`);
    const ids = async (q: string) => (await search(w.manager.pb, w.company.id, q)).items.map((hit) => hit.answer).sort();
    expect(await ids(`${name} hired`)).toEqual([a.answer.id, b.answer.id].sort());
    expect(await ids(`${name} "hiring engineers"`)).toEqual([a.answer.id]);
    expect(await ids(`${name} "engineers hiring"`)).toEqual([b.answer.id]);
    expect(await ids(`${name} astronaut`)).toEqual([]);
  });

  it("treats FTS5 syntax as plain words, so no input fails or reaches beyond the company", async () => {
    const w = await world("search-syntax");
    const secret = word("plovix");
    const outsider = await world("search-outsider");
    await answerText(outsider.candidate.id, outsider.text.question.id, `The ${secret} figure is confidential.`);
    for (const q of [secret, `${secret} OR company`, `NOT ${secret}`, `${secret}*`, `company : ${secret}`, `"${secret}`, `(${secret}`, `NEAR(${secret} the)`, `${secret} ^`, "\"\"", "*", "-"]) {
      const res = await search(w.manager.pb, w.company.id, q);
      expect(res.items, q).toEqual([]);
    }
    // the outsider's own manager does find it
    expect((await search(outsider.manager.pb, outsider.company.id, secret)).items).toHaveLength(1);
  });

  it("is for the company's managers only: another company's manager, the candidate, anonymous and a wrong id all get 404", async () => {
    const w = await world("search-access");
    const secret = word("trevant");
    await answerText(w.candidate.id, w.text.question.id, `My ${secret} story.`);
    const stranger = await signUp({ email: uniqueEmail("search-stranger") });
    expect(await statusOf(() => search(stranger.pb, w.company.id, secret))).toBe(404);
    expect(await statusOf(() => search(anonymous(), w.company.id, secret))).toBe(404);
    expect(await statusOf(() => search(asCandidate(w.candidate.id), w.company.id, secret))).toBe(404);
    expect(await statusOf(() => search(w.manager.pb, "nosuchcompany12", secret))).toBe(404);
    expect((await search(w.manager.pb, w.company.id, secret)).items).toHaveLength(1);
  });

  it("follows the answers: a rewritten transcript is found by its new words only, a deleted candidate not at all", async () => {
    const w = await world("search-follow");
    const before = word("gandor");
    const after = word("welmit");
    const video = await answerVideo(w.candidate.id, w.video.question.id);
    const admin = await superuser();
    // pending: no transcript yet, nothing to find
    expect((await search(w.manager.pb, w.company.id, before)).items).toEqual([]);
    await admin.collection("video_answers").update(video.kind.id, { transcript: `first ${before}`, transcriptStatus: "done" });
    expect((await search(w.manager.pb, w.company.id, before)).items).toHaveLength(1);
    await admin.collection("video_answers").update(video.kind.id, { transcript: `second ${after}` });
    expect((await search(w.manager.pb, w.company.id, before)).items).toEqual([]);
    expect((await search(w.manager.pb, w.company.id, after)).items).toHaveLength(1);
    await w.manager.pb.collection("candidates").delete(w.candidate.id, { query: { deleteAnswers: "true" } });
    expect((await search(w.manager.pb, w.company.id, after)).items).toEqual([]);
  });

  it("names the question as the candidate was asked it, after the manager renamed it (issue 16's snapshot)", async () => {
    const w = await world("search-renamed");
    const term = word("morvane");
    const answer = await answerText(w.candidate.id, w.text.question.id, `My ${term} answer.`);
    await w.manager.pb.collection("questions").update(w.text.question.id, { title: "A new title" });
    const { items } = await search(w.manager.pb, w.company.id, term);
    expect(items.map((hit) => [hit.answer, hit.question.title])).toEqual([[answer.answer.id, w.text.question.title]]);
  });

  it("pages by 20, best matches first", async () => {
    const w = await world("search-pages");
    const term = word("brinmar");
    const admin = await superuser();
    const questions = [w.text.question.id];
    // 51 candidates of the job, one text answer each; the first says the word three times
    const candidates = await Promise.all(
      Array.from({ length: 51 }, (_, i) => admin.collection("candidates").create({ job: w.job.id, email: uniqueEmail(`page-${i}`), consentedAt: new Date().toISOString() })),
    );
    for (const [i, candidate] of candidates.entries()) {
      const answer = await admin.collection("answers").create({ candidate: candidate.id, question: questions[0] });
      await admin.collection("text_answers").create({ answer: answer.id, content: i === 0 ? `${term} ${term} ${term}` : `something about ${term} and a lot of other words to dilute it` });
    }
    const first = await search(w.manager.pb, w.company.id, term);
    expect(first.items).toHaveLength(20);
    expect(first.more).toBe(true);
    expect(first.items[0]?.candidate.id).toBe(candidates[0]?.id);
    const third = await w.manager.pb.send<{ items: Hit[]; more: boolean }>(`/api/screenroom/companies/${w.company.id}/search`, { query: { q: term, offset: "40" } });
    expect(third.items).toHaveLength(11);
    expect(third.more).toBe(false);
    const second = await w.manager.pb.send<{ items: Hit[]; more: boolean }>(`/api/screenroom/companies/${w.company.id}/search`, { query: { q: term, offset: "50" } });
    expect(second.items).toHaveLength(1);
    expect(second.more).toBe(false);
  });

  it("weighs each word by how rare it is in the company: the answer saying the rare word more ranks first", async () => {
    const w = await world("search-weights");
    const common = word("tavrin");
    const rare = word("quorlex");
    const admin = await superuser();
    const answerSaying = async (content: string, label: string) => {
      const candidate = await admin.collection("candidates").create({ job: w.job.id, email: uniqueEmail(label), consentedAt: new Date().toISOString() });
      const answer = await admin.collection("answers").create({ candidate: candidate.id, question: w.text.question.id });
      await admin.collection("text_answers").create({ answer: answer.id, content });
      return candidate.id;
    };
    // the two answers with both words: the same length, one word four times and the other once; the one saying the
    // rare word more is stored first, so with the words weighed alike it would come second (newest first on a tie)
    const sayingRare = await answerSaying(`${rare} ${rare} ${rare} ${rare} ${common} plus five more filler words`, "weights-rare");
    for (let i = 0; i < 24; i++) await answerSaying(`${common} and other words of answer ${i}`, `weights-common-${i}`);
    const sayingCommon = await answerSaying(`${common} ${common} ${common} ${common} ${rare} plus five more filler words`, "weights-common");
    const found = await search(w.manager.pb, w.company.id, `${common} ${rare}`);
    expect(found.items.map((hit) => hit.candidate.id)).toEqual([sayingRare, sayingCommon]);
    // and the other way round in the query: the same order
    const reversed = await search(w.manager.pb, w.company.id, `${rare} ${common}`);
    expect(reversed.items.map((hit) => hit.candidate.id)).toEqual([sayingRare, sayingCommon]);
  });
});

// Ranking in windows (server/internal/search/search.go searchRankWindow): the newest SEARCH_RANK_WINDOW matches best
// first, then the next window's, so a common word costs the same in a company of any size. Here a window of 15 (the
// product's is 200) on a server of the suite's own, 51 answers: pages of 20 straddle the windows, and nothing is lost
// or repeated.
describe("transcript search, ranked in windows of the newest matches", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ SEARCH_RANK_WINDOW: "15" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("ranks the newest 15 matches best first, then the next 15, and pages through every match once", async () => {
    const w = await world("search-windows");
    const term = word("velmora");
    const admin = await superuser();
    // windows, newest first: answers 50..36, 35..21, 20..6, 5..0; one answer in each says the word three times
    const windows = [[36, 50], [21, 35], [6, 20], [0, 5]] as const;
    const strong = [45, 30, 10, 3];
    const candidates: string[] = [];
    // stored one after another: answer 0 is the oldest, 50 the newest
    for (let i = 0; i < 51; i++) {
      const candidate = await admin.collection("candidates").create({ job: w.job.id, email: uniqueEmail(`win-${i}`), consentedAt: new Date().toISOString() });
      const answer = await admin.collection("answers").create({ candidate: candidate.id, question: w.text.question.id });
      await admin.collection("text_answers").create({ answer: answer.id, content: strong.includes(i) ? `${term} ${term} ${term}` : `something about ${term} and a lot of other words to dilute it ${i}` });
      candidates.push(candidate.id);
    }
    const page = (offset: number) =>
      w.manager.pb.send<{ items: Hit[]; more: boolean }>(`/api/screenroom/companies/${w.company.id}/search`, { query: { q: term, offset: String(offset) } });
    const pages = [await page(0), await page(20), await page(40)];
    expect(pages.map((p) => [p.items.length, p.more])).toEqual([[20, true], [20, true], [11, false]]);
    const order = pages.flatMap((p) => p.items).map((hit) => candidates.indexOf(hit.candidate.id));
    // every answer once
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 51 }, (_, i) => i));
    // each window in turn, newest first, its strong answer at its head
    let at = 0;
    for (const [index, [low, high]] of windows.entries()) {
      const size = high - low + 1;
      expect(order.slice(at, at + size).sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => low + i));
      expect(order[at]).toBe(strong[index]);
      at += size;
    }
    // a page that starts inside a window and ends in another: the same order from there
    const middle = await page(7);
    expect(middle.items.map((hit) => candidates.indexOf(hit.candidate.id))).toEqual(order.slice(7, 27));
    expect(middle.more).toBe(true);
    // a page that ends exactly at the last match says nothing more follows
    const last = await page(31);
    expect(last.items.map((hit) => candidates.indexOf(hit.candidate.id))).toEqual(order.slice(31, 51));
    expect(last.more).toBe(false);
  });
});
