// GET /api/screenroom/reviews/{candidateId} (server/internal/review/review.go): the candidate review's one read.
// It answers exactly what the records API's expanded candidate answers, to the managers of the candidate's company
// only, and nothing to anyone else.
import PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, answerVideo, asCandidate, errorOf, signUp, superuser, uniqueEmail, world } from "./helpers";

const EXPAND = [
  "job.questions.video_questions_via_question",
  "job.questions.text_questions_via_question",
  "answers_via_candidate.video_answers_via_answer",
  "answers_via_candidate.text_answers_via_answer",
].join(",");

const review = (pb: PocketBase, candidateId: string) =>
  pb.send<Record<string, unknown>>(`/api/screenroom/reviews/${encodeURIComponent(candidateId)}`, { method: "GET" });

/** Lists sorted, keys sorted: the expand's order of back-related records is not part of the answer. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, normalized((value as Record<string, unknown>)[key])]));
  }
  return value;
}

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  a = await world("review-a");
  b = await world("review-b");
  // the job's order differs from the order the questions were created in
  await a.manager.pb.collection("jobs").update(a.job.id, { questions: [a.text.question.id, a.video.question.id] });
  await answerVideo(a.candidate.id, a.video.question.id);
  await answerText(a.candidate.id, a.text.question.id, "I like solving problems.");
  // the media worker's bookkeeping (hidden fields) on the video answer
  const su = await superuser();
  const [video] = await su.collection("video_answers").getFullList({ filter: `answer.candidate = "${a.candidate.id}"` });
  await su.collection("video_answers").update(video!.id, { transcriptClaimedBy: "worker-1", transcriptError: "first try failed" });
});

describe("the review route", () => {
  it("gives the job's manager what the records API's expanded candidate gives, hidden fields left out", async () => {
    const viaRoute = await review(a.manager.pb, a.candidate.id);
    const viaRecords = await a.manager.pb.collection("candidates").getOne(a.candidate.id, { expand: EXPAND });
    expect(normalized(viaRoute)).toEqual(normalized(JSON.parse(JSON.stringify(viaRecords))));

    const expand = viaRoute.expand as { job: { questions: string[]; expand: { questions: { id: string }[] } }; answers_via_candidate: unknown[] };
    // the job's questions in the job's order, as the records API expands them
    expect(expand.job.expand.questions.map((q) => q.id)).toEqual(expand.job.questions);
    expect(expand.job.expand.questions.map((q) => q.id)).toEqual(
      (viaRecords.expand as { job: { expand: { questions: { id: string }[] } } }).job.expand.questions.map((q) => q.id),
    );
    expect(expand.answers_via_candidate).toHaveLength(2);
    const serialized = JSON.stringify(viaRoute);
    expect(serialized).toContain("I like solving problems.");
    expect(serialized).not.toContain("worker-1");
    expect(serialized).not.toContain("first try failed");
  });

  it("answers 404 to everyone but the managers of the candidate's company", async () => {
    const stranger = await signUp({ email: uniqueEmail("review-stranger") });
    const invitee = await signUp({ email: uniqueEmail("review-invitee") });
    await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: invitee.user.email });
    const refusals = [
      ["anonymous", anonymous(), a.candidate.id],
      ["the candidate itself", asCandidate(a.candidate.id), a.candidate.id],
      ["a manager of another company", b.manager.pb, a.candidate.id],
      ["a user with no company", stranger.pb, a.candidate.id],
      ["an invitee of the company, before accepting", invitee.pb, a.candidate.id],
      ["the manager, for an unknown id", a.manager.pb, "nosuchcandidat0"],
    ] as const;
    for (const [who, pb, id] of refusals) {
      expect({ who, status: (await errorOf(() => review(pb, id))).status }).toEqual({ who, status: 404 });
    }
  });

  it("returns a video answer's timed transcript (issue 15: transcriptSegments), which the review's segments seek by", async () => {
    const su = await superuser();
    const [video] = await su.collection("video_answers").getFullList({ filter: `answer.candidate = "${a.candidate.id}"` });
    const segments = [
      { start: 0, end: 1.5, text: "Hello there." },
      { start: 1.5, end: 3.25, text: "I like solving problems." },
    ];
    await su.collection("video_answers").update(video!.id, { transcriptSegments: segments });

    const viaRoute = await review(a.manager.pb, a.candidate.id);
    type Answer = { expand?: { video_answers_via_answer?: { id: string; transcriptSegments?: unknown } } };
    const videos = (viaRoute.expand as { answers_via_candidate: Answer[] }).answers_via_candidate.flatMap((answer) =>
      answer.expand?.video_answers_via_answer ? [answer.expand.video_answers_via_answer] : [],
    );
    expect(videos).toEqual([expect.objectContaining({ id: video!.id, transcriptSegments: segments })]);
  });

  it("serves a candidate with no answers yet", async () => {
    const fresh = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("review-fresh") });
    const result = await review(a.manager.pb, fresh.id);
    expect((result.expand as { answers_via_candidate?: unknown[] }).answers_via_candidate ?? []).toEqual([]);
  });
});
