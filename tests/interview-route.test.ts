// GET /api/screenroom/interviews/{candidateId} (server/internal/interview): the interview screens'
// one read. Only the candidate itself (its key in the path and in X-Candidate-Key) gets it; it holds the job's questions in the
// job's order with their kinds, and the questions already answered, and nothing of any other job.
import PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, answerVideo, asCandidate, asCandidateKey, createQuestion, errorOf, keyOf, superuser, world } from "./helpers";

type Interview = {
  candidateId: string;
  companyName: string;
  jobTitle: string;
  questions: { id: string; title: string; description: string; timeout: number; canPreview: boolean; kind: string; takes: number; takesUsed: number; keptTake: unknown }[];
  answeredQuestionIds: string[];
};

const readAt = (pb: PocketBase, key: string) => pb.send<Interview>(`/api/screenroom/interviews/${encodeURIComponent(key)}`, { method: "GET" });
/** The interview of the candidate `candidateId`, at its link's path: the candidate's key (a value that is no candidate's id as it is). */
const read = async (pb: PocketBase, candidateId: string) => readAt(pb, (await keyOf(candidateId)) ?? candidateId);

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  a = await world("route-a");
  b = await world("route-b");
});

describe("the interview route", () => {
  it("gives the candidate its company, job and questions in the job's order, with kinds and takes", async () => {
    // a third question put first: the job's order, not the creation order, is the interview's order
    const extra = await createQuestion(a.manager.pb, a.company.id, "text", { title: "Why us?", canPreview: false, timeout: 30 });
    await a.manager.pb.collection("video_questions").update(a.video.kindRecord.id, { takes: 3 });
    await a.manager.pb.collection("jobs").update(a.job.id, { questions: [extra.question.id, a.video.question.id, a.text.question.id] });

    const interview = await read(asCandidate(a.candidate.id), a.candidate.id);
    expect(interview).toEqual({
      candidateId: a.candidate.id,
      companyName: a.company.name,
      companyLogoUrl: `/api/files/${a.company.collectionId}/${a.company.id}/${a.company.logo}`,
      privacyUrl: "",
      jobTitle: a.job.title,
      welcomeMessage: "",
      language: "en",
      candidateLanguage: "",
      retentionMonths: 0,
      consentedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/),
      serverNow: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/),
      deadline: "",
      closed: null,
      questions: [
        { id: extra.question.id, title: "Why us?", description: "Tell us about yourself", timeout: 30, untimed: false, preparation: 0, canPreview: false, kind: "text", takes: 1, takesUsed: 0, keptTake: null, openedAt: "" },
        { id: a.video.question.id, title: "video question", description: "Tell us about yourself", timeout: 60, untimed: false, preparation: 30, canPreview: true, kind: "video", takes: 3, takesUsed: 0, keptTake: null, openedAt: "" },
        { id: a.text.question.id, title: "text question", description: "Tell us about yourself", timeout: 60, untimed: false, preparation: 0, canPreview: true, kind: "text", takes: 1, takesUsed: 0, keptTake: null, openedAt: "" },
      ],
      answeredQuestionIds: [],
    });
  });

  it("lists the questions the candidate answered, and only its own answers", async () => {
    await answerVideo(a.candidate.id, a.video.question.id);
    await answerText(b.candidate.id, b.text.question.id);
    const interview = await read(asCandidate(a.candidate.id), a.candidate.id);
    expect(interview.answeredQuestionIds).toEqual([a.video.question.id]);
    expect((await read(asCandidate(b.candidate.id), b.candidate.id)).answeredQuestionIds).toEqual([b.text.question.id]);
  });

  it("answers 404 with the invalid-link message to everyone but the candidate", async () => {
    const key = async (candidateId: string) => (await keyOf(candidateId))!;
    const refusals = [
      ["no header", anonymous(), await key(a.candidate.id)],
      ["another candidate's key in the header", asCandidate(b.candidate.id), await key(a.candidate.id)],
      ["an unknown key", asCandidateKey("N0such".padEnd(40, "x")), "N0such".padEnd(40, "x")],
      ["the job's manager", a.manager.pb, await key(a.candidate.id)],
      ["the header with another path", asCandidateKey(await key(a.candidate.id)), await key(b.candidate.id)],
      ["the record id instead of the key, in the path and the header", asCandidateKey(a.candidate.id), a.candidate.id],
    ] as const;
    for (const [who, pb, id] of refusals) {
      const error = await errorOf(() => readAt(pb, id));
      expect({ who, status: error.status, message: error.response.message }).toEqual({
        who,
        status: 404,
        message: "This interview link is not valid.",
      });
    }
  });

  it("follows the candidate out: a deleted candidate's link is no longer valid", async () => {
    const su = await superuser();
    const gone = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: `gone-${Date.now()}@example.com` });
    expect((await read(asCandidate(gone.id), gone.id)).candidateId).toBe(gone.id);
    await su.collection("candidates").delete(gone.id);
    expect((await errorOf(() => read(asCandidate(gone.id), gone.id))).status).toBe(404);
  });

  it("leaves out a question removed from the job", async () => {
    await b.manager.pb.collection("jobs").update(b.job.id, { questions: [b.text.question.id] });
    const interview = await read(asCandidate(b.candidate.id), b.candidate.id);
    expect(interview.questions.map((q) => q.id)).toEqual([b.text.question.id]);
  });
});
