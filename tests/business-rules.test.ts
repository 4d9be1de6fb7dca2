// decisions.md "Server-side business rules" 1-9, as a user of the API observes them: what the server
// answers, what it stores (read back as a superuser) and what it mails (read from MailDev).
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import {
  PASSWORD,
  anonymous,
  answerText,
  answerVideo,
  asCandidate,
  createCompany,
  createJob,
  createQuestion,
  errorOf,
  keyOf,
  linksIn,
  pngFile,
  postAnswer,
  randomId,
  signUp,
  statusOf,
  uniqueEmail,
  waitForMail,
  webmFile,
  world,
} from "./helpers";
import { acceptInvite, admin, chars, countOf, expectBatchFieldError, expectFieldError, inviteKey, storedOrNull } from "./support";

const APP_URL = "http://app.screenroom.test";

async function storedUser(id: string) {
  return (await admin()).collection("users").getOne(id);
}

describe("rule 1: creating a company", () => {
  it("makes the creator the only manager, whatever managers the client sends", async () => {
    const other = await signUp({ email: uniqueEmail("r1-other") });
    const me = await signUp({ email: uniqueEmail("r1-creator") });

    const withBoth = await me.pb.collection("companies").create({
      name: "Both sent",
      website: "https://both.example.com",
      logo: pngFile(),
      managers: [other.user.id, me.user.id],
    });
    expect(withBoth.managers).toEqual([me.user.id]);
    expect((await storedOrNull("companies", withBoth.id))?.managers).toEqual([me.user.id]);

    const withOtherOnly = await me.pb.collection("companies").create({
      name: "Other sent",
      website: "https://other.example.com",
      logo: pngFile(),
      managers: [other.user.id],
    });
    expect((await storedOrNull("companies", withOtherOnly.id))?.managers).toEqual([me.user.id]);

    // the other user was not made a manager of either
    expect(await statusOf(() => other.pb.collection("companies").getOne(withBoth.id))).toBe(404);
    expect(await countOf("companies", "managers.id ?= {:u}", { u: other.user.id })).toBe(0);
  });

  it("sets primaryCompany on the first company only; a second company leaves it", async () => {
    const me = await signUp({ email: uniqueEmail("r1-primary") });
    expect((await storedUser(me.user.id)).primaryCompany).toBe("");

    const first = await createCompany(me.pb, "First company");
    expect((await storedUser(me.user.id)).primaryCompany).toBe(first.id);
    expect((await me.pb.collection("users").getOne(me.user.id)).primaryCompany).toBe(first.id);

    const second = await createCompany(me.pb, "Second company");
    expect(second.managers).toEqual([me.user.id]);
    expect((await storedUser(me.user.id)).primaryCompany).toBe(first.id);
  });
});

describe("rule 2: primaryCompany only a managed company", () => {
  it("refuses a company the user does not manage, accepts a managed one or empty", async () => {
    const me = await signUp({ email: uniqueEmail("r2-me") });
    const mine = await createCompany(me.pb, "Mine");
    const alsoMine = await createCompany(me.pb, "Also mine");
    const other = await signUp({ email: uniqueEmail("r2-other") });
    const theirs = await createCompany(other.pb, "Theirs");
    const users = me.pb.collection("users");

    await expectFieldError(() => users.update(me.user.id, { primaryCompany: theirs.id }), "primaryCompany");
    expect((await storedUser(me.user.id)).primaryCompany).toBe(mine.id);

    await expectFieldError(() => users.update(me.user.id, { primaryCompany: "nosuchcompany00" }), "primaryCompany");
    expect((await storedUser(me.user.id)).primaryCompany).toBe(mine.id);

    await users.update(me.user.id, { primaryCompany: alsoMine.id });
    expect((await storedUser(me.user.id)).primaryCompany).toBe(alsoMine.id);

    await users.update(me.user.id, { primaryCompany: "" });
    expect((await storedUser(me.user.id)).primaryCompany).toBe("");
  });
});

describe("rule 3: manager invites", () => {
  it("refuses to invite a current manager, whatever the e-mail's case", async () => {
    const owner = await signUp({ email: uniqueEmail("r3-owner") });
    const company = await createCompany(owner.pb, "R3 manager");
    const invites = owner.pb.collection("manager_invites");

    for (const email of [owner.user.email as string, (owner.user.email as string).toUpperCase()]) {
      const error = await expectFieldError(() => invites.create({ company: company.id, email }), "email");
      expect(error.message).toMatch(/^This person is already a manager of this company/);
    }
    expect(await countOf("manager_invites", "company = {:c}", { c: company.id })).toBe(0);
  });

  it("refuses a second invite for the same company and e-mail (any case)", async () => {
    const owner = await signUp({ email: uniqueEmail("r3-twice") });
    const company = await createCompany(owner.pb, "R3 twice");
    const invites = owner.pb.collection("manager_invites");
    const email = uniqueEmail("r3-invitee");

    await invites.create({ company: company.id, email });
    await expectFieldError(() => invites.create({ company: company.id, email }), "email");
    await expectFieldError(() => invites.create({ company: company.id, email: email.toUpperCase() }), "email");
    expect(await countOf("manager_invites", "company = {:c}", { c: company.id })).toBe(1);
  });

  it("mails the invitee an accept link and a sign-up link with the invite", async () => {
    const owner = await signUp({ email: uniqueEmail("r3-mail") });
    const company = await createCompany(owner.pb, "R3 Mail Company");
    const email = uniqueEmail("r3-mailed");
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email });

    const mail = await waitForMail(email);
    expect(mail.to.map((t) => t.address.toLowerCase())).toEqual([email]);
    expect(mail.html).toContain("R3 Mail Company");
    const links = linksIn(mail).map((href) => new URL(href));

    // both carry the invite's key, which only this e-mail has: the sign-up with it verifies the account (rule 5)
    const key = await inviteKey(invite.id);
    expect(key).toMatch(/^[a-zA-Z0-9]{40}$/);
    expect(invite.secret).toBeUndefined();

    const accept = links.find((url) => url.pathname.startsWith("/invites/"));
    expect(accept, linksIn(mail).join("\n")).toBeDefined();
    expect(accept!.origin).toBe(APP_URL);
    const [, , inviteId, encodedEmail, ...rest] = accept!.pathname.split("/");
    expect(inviteId).toBe(invite.id);
    expect(decodeURIComponent(encodedEmail!)).toBe(email);
    expect(rest).toEqual([]);
    expect(accept!.searchParams.get("key")).toBe(key);

    const signUpLink = links.find((url) => url.search.includes("invite="));
    expect(signUpLink, linksIn(mail).join("\n")).toBeDefined();
    expect(signUpLink!.origin).toBe(APP_URL);
    expect(signUpLink!.pathname).toBe("/auth/sign-up");
    expect(signUpLink!.searchParams.get("invite")).toBe(key);
    expect(signUpLink!.searchParams.get("email")).toBe(email);
  });

  it("stores the invited e-mail lower-cased", async () => {
    const owner = await signUp({ email: uniqueEmail("r3-case") });
    const company = await createCompany(owner.pb, "R3 case");
    const unique = randomId().slice(0, 6);
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email: `MiXeD-${unique}@Example.com` });
    expect(invite.email).toBe(`mixed-${unique}@example.com`);
    expect((await storedOrNull("manager_invites", invite.id))?.email).toBe(`mixed-${unique}@example.com`);
  });
});

describe("rule 4: accepting an invite", () => {
  it("lets only the signed-in invitee join; joins, deletes the invite and sets an empty primaryCompany", async () => {
    const owner = await signUp({ email: uniqueEmail("r4-owner") });
    const company = await createCompany(owner.pb, "R4 company");
    const invitee = await signUp({ email: uniqueEmail("r4-invitee") });
    const stranger = await signUp({ email: uniqueEmail("r4-stranger") });
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email: invitee.user.email });

    const byStranger = await acceptInvite(invite.id, stranger.pb.authStore.token);
    expect(byStranger.status, JSON.stringify(byStranger.body)).toBe(404);
    const byAnonymous = await acceptInvite(invite.id);
    expect(byAnonymous.status, JSON.stringify(byAnonymous.body)).toBe(401);
    let stored = await storedOrNull("companies", company.id);
    expect(stored?.managers).toEqual([owner.user.id]);
    expect(await storedOrNull("manager_invites", invite.id)).not.toBeNull();
    expect((await storedUser(stranger.user.id)).primaryCompany).toBe("");

    expect((await storedUser(invitee.user.id)).primaryCompany).toBe("");
    const accepted = await acceptInvite(invite.id, invitee.pb.authStore.token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    stored = await storedOrNull("companies", company.id);
    expect(stored?.managers).toEqual([owner.user.id, invitee.user.id]);
    expect(await storedOrNull("manager_invites", invite.id)).toBeNull();
    expect((await storedUser(invitee.user.id)).primaryCompany).toBe(company.id);
    // and the new manager now sees the company
    expect((await invitee.pb.collection("companies").getOne(company.id)).id).toBe(company.id);

    // accepting again: the invite is gone
    expect((await acceptInvite(invite.id, invitee.pb.authStore.token)).status).toBe(404);
  });

  it("keeps an invitee's existing primaryCompany", async () => {
    const owner = await signUp({ email: uniqueEmail("r4-owner2") });
    const company = await createCompany(owner.pb, "R4 second");
    const invitee = await signUp({ email: uniqueEmail("r4-busy") });
    const own = await createCompany(invitee.pb, "Invitee's own");
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email: invitee.user.email });

    const accepted = await acceptInvite(invite.id, invitee.pb.authStore.token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await storedOrNull("companies", company.id))?.managers).toContain(invitee.user.id);
    expect((await storedUser(invitee.user.id)).primaryCompany).toBe(own.id);
  });
});

describe("rule 5: sign-up with an invite (its key, from the invite e-mail)", () => {
  const signUpWithInvite = (email: string, invite: string) =>
    anonymous().collection("users").create({
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      firstName: "Grace",
      lastName: "Hopper",
      emailVisibility: true,
      invite,
    });

  it("verifies the new user, makes them a manager and deletes the invite", async () => {
    const owner = await signUp({ email: uniqueEmail("r5-owner") });
    const company = await createCompany(owner.pb, "R5 company");
    const email = uniqueEmail("r5-invitee");
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email });

    const created = await signUpWithInvite(email, await inviteKey(invite.id));
    expect(created.verified).toBe(true);
    expect((await storedUser(created.id)).verified).toBe(true);
    expect((await storedOrNull("companies", company.id))?.managers).toEqual([owner.user.id, created.id]);
    expect(await storedOrNull("manager_invites", invite.id)).toBeNull();
    expect((await storedUser(created.id)).primaryCompany).toBe(company.id);

    // the client signs in straight away and sees the company
    const pb = anonymous();
    await pb.collection("users").authWithPassword(email, PASSWORD);
    expect((await pb.collection("companies").getOne(company.id)).id).toBe(company.id);
  });

  it.each([
    ["another e-mail than the invite's", "wrong"],
    ["an unknown invite", "unknown"],
    ["the invite's id rather than its key", "id"],
  ])("refuses a sign-up with %s and creates nothing", async (_what, kind) => {
    const owner = await signUp({ email: uniqueEmail("r5-refused-owner") });
    const company = await createCompany(owner.pb, "R5 refused");
    const invited = uniqueEmail("r5-invited");
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email: invited });
    const email = kind === "id" ? invited : uniqueEmail("r5-intruder");
    const sent: Record<string, string> = { wrong: await inviteKey(invite.id), unknown: "x".repeat(40), id: invite.id };

    const err = await errorOf(() => signUpWithInvite(email, sent[kind]!));
    expect(err.status, JSON.stringify(err.response)).toBe(400);
    expect(err.response.message).toMatch(/^This invitation is no longer valid/);
    expect(await countOf("users", "email = {:email}", { email })).toBe(0);
    expect((await storedOrNull("companies", company.id))?.managers).toEqual([owner.user.id]);
    expect(await storedOrNull("manager_invites", invite.id)).not.toBeNull();
  });
});

describe("rule 6: candidate invites", () => {
  it("refuses a second candidate for the same job and e-mail, in any case", async () => {
    const w = await world("r6-dup");
    const email = uniqueEmail("r6-candidate");
    await w.manager.pb.collection("candidates").create({ job: w.job.id, email });

    const error = await expectFieldError(
      () => w.manager.pb.collection("candidates").create({ job: w.job.id, email: email.toUpperCase() }),
      "email",
    );
    expect(error.message).toMatch(/^This candidate has already been invited\.?$/);
    expect(await countOf("candidates", "job = {:job} && email = {:email}", { job: w.job.id, email })).toBe(1);

    // nor by changing another candidate's e-mail to it in another case; a changed e-mail is stored lower-cased too
    const other = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("r6-other") });
    await expectFieldError(() => w.manager.pb.collection("candidates").update(other.id, { email: ` ${email.toUpperCase()} ` }), "email");
    const moved = uniqueEmail("r6-moved");
    await w.manager.pb.collection("candidates").update(other.id, { email: moved.toUpperCase() });
    expect((await storedOrNull("candidates", other.id))?.email).toBe(moved);
  });

  it("mails the candidate the company name, the job title and the interview link", async () => {
    const w = await world("r6-mail");
    const mail = await waitForMail(w.candidate.email);
    expect(mail.to.map((t) => t.address.toLowerCase())).toEqual([w.candidate.email]);
    expect(mail.html).toContain(w.company.name);
    expect(mail.html).toContain(w.job.title);
    // the link carries the candidate's key, never its record id
    expect(linksIn(mail)).toContain(`${APP_URL}/candidates/${await keyOf(w.candidate.id)}`);
    expect(mail.html).not.toContain(w.candidate.id);
  });

  it("refuses a candidate for a job of a company the inviter does not manage", async () => {
    const w = await world("r6-owner");
    const other = await world("r6-other");
    const email = uniqueEmail("r6-poached");

    const status = await statusOf(() => other.manager.pb.collection("candidates").create({ job: w.job.id, email }));
    expect(status).toBe(400);
    expect(await countOf("candidates", "email = {:email}", { email })).toBe(0);
  });
});

describe("rule 7: a job's questions", () => {
  it("refuses a question of another company, alone or among the company's own", async () => {
    const w = await world("r7-owner");
    const other = await world("r7-other");
    const foreign = other.text.question.id;
    const jobs = w.manager.pb.collection("jobs");
    const before = await countOf("jobs", "company = {:c}", { c: w.company.id });

    await expectFieldError(() => createJob(w.manager.pb, w.company.id, [foreign]), "questions");
    await expectFieldError(() => createJob(w.manager.pb, w.company.id, [w.video.question.id, foreign]), "questions");
    expect(await countOf("jobs", "company = {:c}", { c: w.company.id })).toBe(before);

    await expectFieldError(() => jobs.update(w.job.id, { questions: [w.text.question.id, foreign] }), "questions");
    expect((await storedOrNull("jobs", w.job.id))?.questions).toEqual([w.video.question.id, w.text.question.id]);
  });

  it("refuses a job with zero questions, on create and on update", async () => {
    const w = await world("r7-zero");
    const before = await countOf("jobs", "company = {:c}", { c: w.company.id });
    await expectFieldError(() => createJob(w.manager.pb, w.company.id, []), "questions");
    expect(await countOf("jobs", "company = {:c}", { c: w.company.id })).toBe(before);

    await expectFieldError(() => w.manager.pb.collection("jobs").update(w.job.id, { questions: [] }), "questions");
    expect((await storedOrNull("jobs", w.job.id))?.questions).toEqual([w.video.question.id, w.text.question.id]);
  });
});

describe("rule 8: one kind per question", () => {
  const kinds = async (questionId: string) => ({
    video: await countOf("video_questions", "question = {:q}", { q: questionId }),
    text: await countOf("text_questions", "question = {:q}", { q: questionId }),
  });

  it("refuses a second kind record, of either kind", async () => {
    const manager = await signUp({ email: uniqueEmail("r8-both") });
    const company = await createCompany(manager.pb, "R8 both");
    const { question } = await createQuestion(manager.pb, company.id, "video");

    await expectFieldError(() => manager.pb.collection("text_questions").create({ question: question.id }), "question");
    await expectFieldError(() => manager.pb.collection("video_questions").create({ question: question.id, takes: 3 }), "question");
    expect(await kinds(question.id)).toEqual({ video: 1, text: 0 });
  });

  it("changes kind in one batch (delete the old record, create the new one), both ways", async () => {
    const manager = await signUp({ email: uniqueEmail("r8-swap") });
    const company = await createCompany(manager.pb, "R8 swap");
    const { question, kindRecord } = await createQuestion(manager.pb, company.id, "video");

    const toText = manager.pb.createBatch();
    toText.collection("video_questions").delete(kindRecord.id);
    toText.collection("text_questions").create({ question: question.id });
    const [, created] = await toText.send();
    expect(created?.status).toBe(200);
    expect(await kinds(question.id)).toEqual({ video: 0, text: 1 });

    const textId = (created!.body as RecordModel).id;
    const toVideo = manager.pb.createBatch();
    toVideo.collection("text_questions").delete(textId);
    toVideo.collection("video_questions").create({ question: question.id, takes: 4 });
    await toVideo.send();
    expect(await kinds(question.id)).toEqual({ video: 1, text: 0 });
    expect(await countOf("video_questions", "question = {:q} && takes = 4", { q: question.id })).toBe(1);
  });

  it("refuses a batch that creates the new kind before deleting the old one, and keeps the old kind", async () => {
    const manager = await signUp({ email: uniqueEmail("r8-order") });
    const company = await createCompany(manager.pb, "R8 order");
    const { question, kindRecord } = await createQuestion(manager.pb, company.id, "video");

    const batch = manager.pb.createBatch();
    batch.collection("text_questions").create({ question: question.id });
    batch.collection("video_questions").delete(kindRecord.id);
    await expectBatchFieldError(() => batch.send(), 0, "question");
    expect(await kinds(question.id)).toEqual({ video: 1, text: 0 });
    expect(await storedOrNull("video_questions", kindRecord.id)).not.toBeNull();
  });
});

describe("rule 9: answers", () => {
  const answersFor = (candidate: string, question: string) =>
    countOf("answers", "candidate = {:c} && question = {:q}", { c: candidate, q: question });

  it.each([
    ["a text answer to a video question", "video", "text_answers"],
    ["a video answer to a text question", "text", "video_answers"],
  ] as const)("refuses %s and leaves no answer behind", async (_what, questionKind, kindCollection) => {
    const w = await world("r9-kind");
    const questionId = w[questionKind].question.id;
    const id = randomId();
    const kindFields: Record<string, string | File> = kindCollection === "text_answers" ? { content: "Wrong kind" } : { file: webmFile() };
    await expectFieldError(() => postAnswer(asCandidate(w.candidate.id), { id, question: questionId, ...kindFields }), "answer");
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await answersFor(w.candidate.id, questionId)).toBe(0);
    expect(await countOf(kindCollection, "answer = {:a}", { a: id })).toBe(0);
  });

  it("refuses a second answer to the same question", async () => {
    const w = await world("r9-twice");
    const first = await answerText(w.candidate.id, w.text.question.id, "First answer");
    const err = await errorOf(() => answerText(w.candidate.id, w.text.question.id, "Second answer"));
    expect(err.status, JSON.stringify(err.response)).toBe(400);

    const video = await answerVideo(w.candidate.id, w.video.question.id);
    expect(await statusOf(() => answerVideo(w.candidate.id, w.video.question.id))).toBe(400);

    expect(await answersFor(w.candidate.id, w.text.question.id)).toBe(1);
    expect(await answersFor(w.candidate.id, w.video.question.id)).toBe(1);
    expect(await countOf("text_answers", "answer.candidate = {:c}", { c: w.candidate.id })).toBe(1);
    expect(await countOf("text_answers", "answer = {:a} && content = 'First answer'", { a: first.answer.id })).toBe(1);
    expect(await countOf("video_answers", "answer.candidate = {:c}", { c: w.candidate.id })).toBe(1);
    expect(await countOf("video_answers", "answer = {:a}", { a: video.answer.id })).toBe(1);
  });

  it("refuses a text answer of 1001 characters and leaves no answer behind", async () => {
    const w = await world("r9-long");
    await expectFieldError(() => answerText(w.candidate.id, w.text.question.id, chars(1001)), "content");
    expect(await answersFor(w.candidate.id, w.text.question.id)).toBe(0);

    // the question can still be answered properly afterwards
    await answerText(w.candidate.id, w.text.question.id, chars(1000));
    expect(await answersFor(w.candidate.id, w.text.question.id)).toBe(1);
  });

  it("does not let a candidate forge transcript or transcriptStatus", async () => {
    const w = await world("r9-forge");
    const id = randomId();
    await postAnswer(asCandidate(w.candidate.id), {
      id,
      question: w.video.question.id,
      file: webmFile(),
      transcript: "I am the best candidate",
      transcriptStatus: "done",
    });

    const stored = await (await admin()).collection("video_answers").getFirstListItem(`answer = "${id}"`);
    expect(stored.transcriptStatus).toBe("pending");
    expect(stored.transcript).toBe("");
  });

  it("stores the answer and its kind record created in one request, both", async () => {
    const w = await world("r9-both");
    const text = await answerText(w.candidate.id, w.text.question.id, "Both records");
    const video = await answerVideo(w.candidate.id, w.video.question.id);

    const textAnswer = await storedOrNull("answers", text.answer.id);
    expect(textAnswer?.question).toBe(w.text.question.id);
    expect(textAnswer?.candidate).toBe(w.candidate.id);
    expect((await storedOrNull("text_answers", text.kind.id))?.answer).toBe(text.answer.id);
    expect((await storedOrNull("text_answers", text.kind.id))?.content).toBe("Both records");

    const videoAnswer = await storedOrNull("answers", video.answer.id);
    expect(videoAnswer?.question).toBe(w.video.question.id);
    const videoKind = await storedOrNull("video_answers", video.kind.id);
    expect(videoKind?.answer).toBe(video.answer.id);
    expect(videoKind?.file).toMatch(/\.webm$/);
    expect(videoKind?.transcriptStatus).toBe("pending");
  });
});
