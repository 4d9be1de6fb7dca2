// Every server-side limit (spec §5 and §9, decisions.md) accepted at its limit and refused one past it.
// The server is the authority: these calls bypass the SPA's own validation on purpose.
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD,
  anonymous,
  asCandidate,
  createQuestion,
  markVerified,
  pngFile,
  postAnswer,
  randomId,
  signUp,
  uniqueEmail,
  webmFile,
  newCandidateOf,
  world,
} from "./helpers";
import { chars, countOf, expectFieldError, mp4File, pngOfSize, storedOrNull, textFile } from "./support";

type Manager = Awaited<ReturnType<typeof signUp>>;

describe("users: sign-up limits", () => {
  const signUpWith = (fields: Record<string, unknown>) =>
    anonymous()
      .collection("users")
      .create({
        email: uniqueEmail("limits-user"),
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        firstName: "Ada",
        lastName: "Lovelace",
        emailVisibility: true,
        ...fields,
      });

  describe.each(["firstName", "lastName"])("%s", (field) => {
    it.each([3, 100])(`accepts ${field} of %i characters`, async (n) => {
      const user = await signUpWith({ [field]: chars(n, "n") });
      expect(user[field]).toBe(chars(n, "n"));
      expect((await storedOrNull("users", user.id))?.[field]).toBe(chars(n, "n"));
    });

    it.each([2, 101, 0])(`refuses ${field} of %i characters`, async (n) => {
      const email = uniqueEmail("limits-refused");
      await expectFieldError(() => signUpWith({ email, [field]: chars(n, "n") }), field);
      expect(await countOf("users", "email = {:email}", { email })).toBe(0);
    });
  });

  it("accepts a password of 8 characters (and it signs in)", async () => {
    const email = uniqueEmail("limits-pw8");
    const user = await signUpWith({ email, password: "abcdefgh", passwordConfirm: "abcdefgh" });
    await markVerified(user.id); // an unverified account does not sign in (issue 13)
    const pb = anonymous();
    await pb.collection("users").authWithPassword(email, "abcdefgh");
    expect(pb.authStore.isValid).toBe(true);
  });

  it("refuses a password of 7 characters", async () => {
    const email = uniqueEmail("limits-pw7");
    await expectFieldError(() => signUpWith({ email, password: "abcdefg", passwordConfirm: "abcdefg" }), "password");
    expect(await countOf("users", "email = {:email}", { email })).toBe(0);
  });
});

describe("companies", () => {
  let manager: Manager;
  beforeAll(async () => {
    manager = await signUp({ email: uniqueEmail("limits-company") });
  });
  const createWith = (fields: Record<string, unknown>) =>
    manager.pb.collection("companies").create({ name: "Limits Inc", website: "https://limits.example.com", logo: pngFile(), ...fields });

  it("accepts a name, a URL website and a PNG logo", async () => {
    const company = await createWith({});
    expect(company.name).toBe("Limits Inc");
    expect(company.website).toBe("https://limits.example.com");
    expect(company.logo).toMatch(/\.png$/);
  });

  it.each([
    ["name", "empty", { name: "" }],
    ["website", "empty", { website: "" }],
    ["website", "not a URL", { website: "not a url" }],
    ["website", "without a scheme and host", { website: "acme" }],
    ["logo", "missing", { logo: undefined }],
    ["logo", "a text file", { logo: textFile() }],
  ])("refuses %s %s", async (field, _what, fields) => {
    const before = await countOf("companies", "managers.id ?= {:u}", { u: manager.user.id });
    await expectFieldError(() => createWith(fields), field);
    expect(await countOf("companies", "managers.id ?= {:u}", { u: manager.user.id })).toBe(before);
  });

  it("accepts a logo of exactly 5 MB", async () => {
    const company = await createWith({ logo: pngOfSize(5 * 1024 * 1024) });
    expect(company.logo).toMatch(/\.png$/);
  });

  it("refuses a logo one byte over 5 MB", async () => {
    const before = await countOf("companies", "managers.id ?= {:u}", { u: manager.user.id });
    await expectFieldError(() => createWith({ logo: pngOfSize(5 * 1024 * 1024 + 1) }), "logo");
    expect(await countOf("companies", "managers.id ?= {:u}", { u: manager.user.id })).toBe(before);
  });
});

describe("questions and video_questions", () => {
  let manager: Manager;
  let company: RecordModel;
  beforeAll(async () => {
    manager = await signUp({ email: uniqueEmail("limits-questions") });
    company = await manager.pb.collection("companies").create({ name: "Q Limits", website: "https://q.example.com", logo: pngFile() });
  });
  const createWith = (fields: Record<string, unknown>) =>
    manager.pb.collection("questions").create({
      company: company.id,
      title: "A fine question",
      description: "Tell us about yourself",
      timeout: 60,
      canPreview: false,
      ...fields,
    });

  it.each([
    ["title", 3, chars(3)],
    ["title", 100, chars(100)],
    ["description", 3, chars(3)],
    ["description", 1000, chars(1000)],
  ])("accepts %s of %i characters", async (field, _n, value) => {
    const question = await createWith({ [field]: value });
    expect((await storedOrNull("questions", question.id))?.[field]).toBe(value);
  });

  it.each([
    ["title", "2 characters", chars(2)],
    ["title", "101 characters", chars(101)],
    ["title", "empty", ""],
    ["description", "2 characters", chars(2)],
    ["description", "1001 characters", chars(1001)],
    ["description", "empty", ""],
  ])("refuses %s of %s", async (field, _what, value) => {
    const before = await countOf("questions", "company = {:c}", { c: company.id });
    await expectFieldError(() => createWith({ [field]: value }), field);
    expect(await countOf("questions", "company = {:c}", { c: company.id })).toBe(before);
  });

  it.each([5, 600])("accepts a timeout of %i seconds", async (timeout) => {
    const question = await createWith({ timeout });
    expect((await storedOrNull("questions", question.id))?.timeout).toBe(timeout);
  });

  it.each([4, 601, 10.5])("refuses a timeout of %s seconds", async (timeout) => {
    const before = await countOf("questions", "company = {:c}", { c: company.id });
    await expectFieldError(() => createWith({ timeout }), "timeout");
    expect(await countOf("questions", "company = {:c}", { c: company.id })).toBe(before);
  });

  it.each([1, 5])("accepts %i takes on a video question", async (takes) => {
    const question = await createWith({});
    const kind = await manager.pb.collection("video_questions").create({ question: question.id, takes });
    expect((await storedOrNull("video_questions", kind.id))?.takes).toBe(takes);
  });

  it.each([0, 6, 2.5])("refuses %s takes on a video question", async (takes) => {
    const question = await createWith({});
    await expectFieldError(() => manager.pb.collection("video_questions").create({ question: question.id, takes }), "takes");
    expect(await countOf("video_questions", "question = {:q}", { q: question.id })).toBe(0);
  });
});

describe("jobs", () => {
  let manager: Manager;
  let company: RecordModel;
  let questionId: string;
  beforeAll(async () => {
    manager = await signUp({ email: uniqueEmail("limits-jobs") });
    company = await manager.pb.collection("companies").create({ name: "J Limits", website: "https://j.example.com", logo: pngFile() });
    questionId = (await createQuestion(manager.pb, company.id, "text")).question.id;
  });
  const createWith = (fields: Record<string, unknown>) =>
    manager.pb.collection("jobs").create({
      company: company.id,
      title: "Support engineer",
      description: "Help our customers",
      location: "Remote",
      questions: [questionId],
      ...fields,
    });

  it.each([
    ["title", 3],
    ["title", 128],
    ["description", 3],
    ["description", 5000],
    ["location", 3],
    ["location", 64],
  ])("accepts %s of %i characters", async (field, n) => {
    const job = await createWith({ [field]: chars(n) });
    expect((await storedOrNull("jobs", job.id))?.[field]).toBe(chars(n));
  });

  it.each([
    ["title", 2],
    ["title", 129],
    ["title", 0],
    ["description", 2],
    ["description", 5001],
    ["description", 0],
    ["location", 2],
    ["location", 65],
    ["location", 0],
  ])("refuses %s of %i characters", async (field, n) => {
    const before = await countOf("jobs", "company = {:c}", { c: company.id });
    await expectFieldError(() => createWith({ [field]: chars(n) }), field);
    expect(await countOf("jobs", "company = {:c}", { c: company.id })).toBe(before);
  });

  it("accepts one question", async () => {
    const job = await createWith({ questions: [questionId] });
    expect((await storedOrNull("jobs", job.id))?.questions).toEqual([questionId]);
  });

  it("refuses a job with no question", async () => {
    const before = await countOf("jobs", "company = {:c}", { c: company.id });
    await expectFieldError(() => createWith({ questions: [] }), "questions");
    expect(await countOf("jobs", "company = {:c}", { c: company.id })).toBe(before);
  });
});

describe("candidates", () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world("limits-candidates");
  });

  it("accepts a valid e-mail", async () => {
    const email = uniqueEmail("limits-cand");
    const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email });
    expect(candidate.email).toBe(email);
  });

  it.each(["not-an-email", "missing-at.example.com", "two@@example.com", ""])("refuses the e-mail %j", async (email) => {
    const before = await countOf("candidates", "job = {:job}", { job: w.job.id });
    await expectFieldError(() => w.manager.pb.collection("candidates").create({ job: w.job.id, email }), "email");
    expect(await countOf("candidates", "job = {:job}", { job: w.job.id })).toBe(before);
  });
});

describe("answers", () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world("limits-answers");
  });
  const newCandidate = () => newCandidateOf(w, "limits-answerer");

  // as the interview stores an answer: POST /api/screenroom/answers, the kind's fields beside the answer's
  const sendAnswer = (candidateId: string, questionId: string, fields: Record<string, string | Blob>) => {
    const id = randomId();
    return { id, send: () => postAnswer(asCandidate(candidateId), { id, question: questionId, ...fields }) };
  };

  it.each([1, 1000])("accepts a text answer of %i characters", async (n) => {
    const candidateId = await newCandidate();
    const { id, send } = sendAnswer(candidateId, w.text.question.id, { content: chars(n, "x") });
    await send();
    expect(await storedOrNull("answers", id)).not.toBeNull();
    expect(await countOf("text_answers", "answer = {:a} && content = {:c}", { a: id, c: chars(n, "x") })).toBe(1);
  });

  it.each([1001, 0])("refuses a text answer of %i characters", async (n) => {
    const candidateId = await newCandidate();
    const { id, send } = sendAnswer(candidateId, w.text.question.id, { content: chars(n, "x") });
    await expectFieldError(send, "content");
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await countOf("answers", "candidate = {:c}", { c: candidateId })).toBe(0);
  });

  it.each([
    ["video/webm", () => webmFile()],
    ["video/mp4", () => mp4File()],
  ])("accepts a %s video answer", async (mime, file) => {
    const candidateId = await newCandidate();
    const { id, send } = sendAnswer(candidateId, w.video.question.id, { file: file() });
    await send();
    expect(await storedOrNull("answers", id)).not.toBeNull();
    expect(await countOf("video_answers", "answer = {:a} && mimeType = {:m}", { a: id, m: mime })).toBe(1);
  });

  it.each([
    ["a PNG image", () => pngFile("answer.png")],
    ["a PNG renamed .webm", () => new File([pngFile().slice()], "answer.webm", { type: "video/webm" })],
    ["a text file", () => textFile("answer.txt")],
  ])("refuses %s as a video answer", async (_what, file) => {
    const candidateId = await newCandidate();
    const { id, send } = sendAnswer(candidateId, w.video.question.id, { file: file() });
    await expectFieldError(send, "file");
    expect(await storedOrNull("answers", id)).toBeNull();
  });

  it("refuses a video answer without a file", async () => {
    const candidateId = await newCandidate();
    const { id, send } = sendAnswer(candidateId, w.video.question.id, {});
    await expectFieldError(send, "file");
    expect(await storedOrNull("answers", id)).toBeNull();
  });
});
