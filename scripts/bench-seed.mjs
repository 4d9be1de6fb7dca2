// The benchmark data set of issue 8: one company, 30 jobs, 60 questions, 3,000 candidates and 9,000
// answers, written by a superuser in batches (rules and hooks still run for every record). Each candidate gets its
// key (the hidden `secret`, its interview link's credential) here, so the bench knows it without reading it back.
import PocketBase from "pocketbase";
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/pocketbase.mjs";
import { logoFile, randomId } from "./seed.mjs";

const answerVideo = readFileSync(join(root, "tests", "fixtures", "answer.webm"));

export const BENCH_SIZE = { jobs: 30, questions: 60, candidates: 3000, answersPerCandidate: 3 };

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/**
 * A candidate's key as the server makes it (40 letters and digits, pocketbase/pb_migrations/1732700000_candidate_key.js):
 * only a superuser may set or read it. The interview link is `/candidates/{key}` and the header `X-Candidate-Key: {key}`.
 */
export function candidateKey() {
  let key = "";
  for (let i = 0; i < 40; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}

async function inBatches(pb, items, size, add) {
  for (let i = 0; i < items.length; i += size) {
    const batch = pb.createBatch();
    for (const item of items.slice(i, i + size)) add(batch, item);
    await batch.send();
  }
}

export async function seedBench({ url, superuser }) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(superuser.email, superuser.password);

  const manager = { email: "bench-manager@screenroom.test", password: "bench-password-123" };
  const user = await su.collection("users").create({
    ...manager,
    passwordConfirm: manager.password,
    firstName: "Bench",
    lastName: "Manager",
    emailVisibility: true,
    verified: true,
  });
  const company = await su.collection("companies").create({ name: "Bench Corp", website: "https://bench.example.com", logo: logoFile(), managers: [user.id] });
  await su.collection("users").update(user.id, { primaryCompany: company.id });

  const questions = Array.from({ length: BENCH_SIZE.questions }, (_, i) => ({ id: randomId(), kind: i % 3 === 0 ? "video" : "text", n: i + 1 }));
  await inBatches(su, questions, 25, (batch, q) => {
    batch.collection("questions").create({ id: q.id, company: company.id, title: `Question ${q.n}`, description: `Benchmark question number ${q.n}`, timeout: 60, canPreview: q.n % 2 === 0 });
    if (q.kind === "video") batch.collection("video_questions").create({ question: q.id, takes: 2 });
    else batch.collection("text_questions").create({ question: q.id });
  });
  // three questions a job: one video, two text
  const textQuestions = questions.filter((q) => q.kind === "text");
  const videoQuestions = questions.filter((q) => q.kind === "video");
  const jobs = Array.from({ length: BENCH_SIZE.jobs }, (_, i) => ({
    id: randomId(),
    n: i + 1,
    questions: [videoQuestions[i % videoQuestions.length], textQuestions[(2 * i) % textQuestions.length], textQuestions[(2 * i + 1) % textQuestions.length]],
  }));
  await inBatches(su, jobs, 25, (batch, job) => {
    batch.collection("jobs").create({
      id: job.id,
      company: company.id,
      title: `Job ${job.n}`,
      description: `Benchmark job number ${job.n}`,
      location: "Remote",
      questions: job.questions.map((q) => q.id),
    });
  });

  const candidates = Array.from({ length: BENCH_SIZE.candidates }, (_, i) => ({ id: randomId(), secret: candidateKey(), job: jobs[i % jobs.length], n: i + 1 }));
  await inBatches(su, candidates, 50, (batch, c) => {
    // they answer below, so they agreed on the start screen (issue 17; a superuser may set consentedAt)
    batch.collection("candidates").create({ id: c.id, secret: c.secret, job: c.job.id, email: `candidate-${c.n}@bench.example.com`, consentedAt: new Date().toISOString().replace("T", " ") });
  });
  // every candidate answers its job's three questions: one small recording, two texts (a superuser may still create
  // answers through the batch API; candidates store theirs with POST /api/screenroom/answers)
  const answers = candidates.flatMap((c) =>
    c.job.questions.slice(0, BENCH_SIZE.answersPerCandidate).map((q) => ({ id: randomId(), candidate: c.id, question: q.id, kind: q.kind })),
  );
  await inBatches(su, answers, 24, (batch, a) => {
    batch.collection("answers").create({ id: a.id, candidate: a.candidate, question: a.question });
    if (a.kind === "video") batch.collection("video_answers").create({ answer: a.id, file: new File([answerVideo], "answer.webm", { type: "video/webm" }) });
    else batch.collection("text_answers").create({ answer: a.id, content: "A benchmark answer of a reasonable length, as a candidate would type it." });
  });

  // candidateId (the record id) names the candidate on the review screen and route; candidateKey opens its interview
  return {
    manager,
    companyId: company.id,
    jobId: jobs[0].id,
    candidateId: candidates[0].id,
    candidateKey: candidates[0].secret,
    counts: { jobs: jobs.length, questions: questions.length, candidates: candidates.length, answers: answers.length } };
}
