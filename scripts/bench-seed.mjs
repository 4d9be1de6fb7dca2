// The benchmark data set of issue 8: one company, 30 jobs, 60 questions, 3,000 candidates and 9,000
// answers, written by a superuser in batches (rules and hooks still run for every record). Each candidate gets its
// key (the hidden `secret`, its interview link's credential) here, so the bench knows it without reading it back.
// Issue 15 adds, beside them, one more job holding 3,000 candidates of its own (its pipeline is read by the bench)
// in a realistic mix: 35% invited, 20% started, 45% completed through real text answers (the server's hooks keep
// their status), two managers' ratings on most finished interviews (the hooks keep each candidate's average), and
// decisions on about two in five finished interviews, written as the decision route writes them.
// Issue 18 makes what the candidates said varied, for the transcript search: each text answer and each video answer's
// transcript (with timed segments, as the worker writes them) is a different run of words from a fixed vocabulary
// (a seeded generator, so every run searches the same data), with "kubernetes" in about 1 in 100 of them and the phrase
// "customer support" in about 1 in 10.
// The analytics (server/internal/analytics) read each candidate's milestones: invites spread over the last eight weeks,
// the link opened, the terms agreed, the first question opened a few minutes before the answers (made at seeding
// time), a reminder for one in four, and in the pipeline job the questions each candidate opened (question_progress).
import PocketBase from "pocketbase";
import { randomInt } from "node:crypto";
import { logoFile, randomId } from "./seed.mjs";


const VOCABULARY = (
  "i we you they my our team customer customers support help helped helping problem problems solve solved solving " +
  "project projects work worked working job role company product products service team's manager managers lead led " +
  "engineer engineering developer code review reviews test tests testing release releases deploy deployed database " +
  "query queries report reports data analysis design designed build built user users feedback meeting meetings plan " +
  "planned planning goal goals deadline deadlines time year years month months week weeks day days learn learned " +
  "learning skill skills communication listen listened explain explained improve improved improvement process " +
  "processes quality fast faster slow slower small large team-mate colleague colleagues conflict resolve resolved " +
  "priority priorities challenge challenges difficult easy proud enjoy enjoyed like liked love because when then " +
  "after before during while and but so also very really more most less the a an of to in on for with at from by " +
  "about into over under again first last next example situation task action result results mentor mentoring " +
  "hiring hired interview interviews onboarding training trained sales marketing finance budget cost costs saving " +
  "savings automation automated script scripts dashboard dashboards incident incidents outage outages monitoring"
).split(" ");

/** A run of words as a candidate might say or type it, from a seeded generator (see the header). */
export function benchSpeech(random, words = 24) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(VOCABULARY[Math.floor(random() * random() * VOCABULARY.length)]);
  if (random() < 0.01) out.splice(Math.floor(random() * out.length), 0, "kubernetes");
  if (random() < 0.1) out.splice(Math.floor(random() * out.length), 0, "customer", "support");
  return out.join(" ");
}

/** A transcript and its segments of up to 8 words, 3 seconds each, as the media worker writes them. */
function benchTranscript(random) {
  const text = benchSpeech(random, 36);
  const words = text.split(" ");
  const segments = [];
  for (let i = 0; i < words.length; i += 8) segments.push({ start: (i / 8) * 3, end: (i / 8) * 3 + 3, text: words.slice(i, i + 8).join(" ") });
  return { transcript: text, transcriptSegments: segments, transcriptStatus: "done" };
}

/**
 * The data set written record by record (every hook runs): 30 jobs of the company's 60 questions, 3,000 candidates
 * with three answers each, and the pipeline job's 3,000 candidates. At `--scale=N` (issue 20) the 30 jobs with all
 * they hold are then copied N-1 times (cloneJobs): 300 jobs, 30,000 candidates and 90,000 answers at 10, beside the
 * pipeline job, which keeps its 3,000 candidates at every scale (issue 15's pipeline is read there).
 */
export const BENCH_SIZE = { jobs: 30, questions: 60, candidates: 3000, answersPerCandidate: 3, pipelineCandidates: 3000 };

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/**
 * A candidate's key as the server makes it (40 letters and digits, server/pb_migrations/1732700000_candidate_key.js):
 * only a superuser may set or read it. The interview link is `/candidates/{key}` and the header `X-Candidate-Key: {key}`.
 */
export function candidateKey() {
  let key = "";
  for (let i = 0; i < 40; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}

/** Records a request to the bench's seeding route (server/internal/devroutes/bench_seed.go), one transaction each. */
const RECORDS_PER_REQUEST = 1000;

/**
 * Writes what `add(batch, item)` makes of each item, in the order made, through the bench's seeding route:
 * `batch.collection(name).create(data)` / `.update(id, data)` as with the SDK's batch; a video answer's `file: true`
 * is the server's copy of tests/fixtures/answer.webm (SCREENROOM_BENCH_SEED, scripts/bench/stack.mjs).
 */
async function inBatches(pb, items, _size, add) {
  const records = [];
  const batch = {
    collection: (collection) => ({
      create: (data) => records.push({ collection, data }),
      update: (id, data) => records.push({ collection, update: true, data: { ...data, id } }),
    }),
  };
  for (const item of items) add(batch, item);
  const started = Date.now();
  for (let i = 0; i < records.length; i += RECORDS_PER_REQUEST) {
    await pb.send("/api/screenroom/bench-seed", { method: "POST", body: { records: records.slice(i, i + RECORDS_PER_REQUEST) } });
  }
  const seconds = (Date.now() - started) / 1000;
  const kinds = [...new Set(records.map((r) => r.collection))].join(" + ");
  if (records.length) console.log(`  ${String(records.length).padStart(6)} ${kinds}: ${seconds} s (${Math.round(records.length / seconds)} records/s)`);
}

export async function seedBench({ url, superuser, scale = 1, largePipeline = 0 }) {
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
  // a second manager of the company: the pipeline job's ratings and decisions come from both
  const colleague = await su.collection("users").create({
    email: "bench-colleague@screenroom.test",
    password: manager.password,
    passwordConfirm: manager.password,
    firstName: "Second",
    lastName: "Reviewer",
    emailVisibility: true,
    verified: true,
  });
  await su.collection("companies").update(company.id, { "managers+": colleague.id });
  await su.collection("users").update(colleague.id, { primaryCompany: company.id });
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
  const stampsRandom = seeded(1001);
  const stampedAt = Date.now();
  await inBatches(su, candidates, 50, (batch, c) => {
    // they answer below, so they agreed on the start screen (issue 17; a superuser may set consentedAt) and opened
    // their first question
    batch.collection("candidates").create({ id: c.id, secret: c.secret, job: c.job.id, email: `candidate-${c.n}@bench.example.com`, ...funnelStamps(stampsRandom, 3, stampedAt) });
  });
  // every candidate answers its job's three questions: one small recording, two texts (a superuser may still create
  // answers through the batch API; candidates store theirs with POST /api/screenroom/answers)
  const answers = candidates.flatMap((c) =>
    c.job.questions.slice(0, BENCH_SIZE.answersPerCandidate).map((q) => ({ id: randomId(), candidate: c.id, question: q.id, kind: q.kind, n: c.n })),
  );
  const speech = seeded(18);
  await inBatches(su, answers, 24, (batch, a) => {
    batch.collection("answers").create({ id: a.id, candidate: a.candidate, question: a.question });
    if (a.kind === "video") {
      batch.collection("video_answers").create({ answer: a.id, file: true, ...benchTranscript(speech) });
    } else batch.collection("text_answers").create({ answer: a.id, content: benchSpeech(speech) });
  });

  // issue 20: the other jobs' interviews are reviewed too: one manager rates every answer of one candidate in three,
  // the other adds a comment on one in five (the hooks keep averageRating and ratingsCount)
  const managers = [user.id, colleague.id];
  const ratings = answers.filter((a) => a.n % 3 === 0).map((a) => ({ answer: a.id, candidate: a.candidate, manager: managers[a.n % 2], stars: 1 + ((a.n * 7) % 5) }));
  await inBatches(su, ratings, 0, (batch, r) => batch.collection("ratings").create(r));
  const comments = candidates.filter((c) => c.n % 5 === 0).map((c) => ({ candidate: c.id, author: managers[(c.n + 1) % 2], text: benchSpeech(speech, 16) }));
  await inBatches(su, comments, 0, (batch, c) => batch.collection("comments").create(c));

  const copies = await cloneJobs(su, jobs, scale - 1);

  const pipeline = await seedPipelineJob(su, { company, managers, questions: textQuestions.slice(0, 3), size: BENCH_SIZE.pipelineCandidates });
  // the pipeline read at ten times the pipeline job (`--large-pipeline=30000`): one more job of the same mix
  const large = largePipeline
    ? await seedPipelineJob(su, { company, managers, questions: textQuestions.slice(0, 3), size: largePipeline, emailPrefix: "large-pipeline" })
    : null;

  // candidateId (the record id) names the candidate on the review screen and route; candidateKey opens its interview
  return {
    manager,
    companyId: company.id,
    jobId: jobs[0].id,
    candidateId: candidates[0].id,
    candidateKey: candidates[0].secret,
    pipelineJobId: pipeline.jobId,
    ...(large ? { largePipelineJobId: large.jobId } : {}),
    counts: {
      jobs: jobs.length * scale + 1 + (large ? 1 : 0),
      questions: questions.length,
      candidates: candidates.length * scale + pipeline.candidates + (large?.candidates ?? 0),
      answers: answers.length * scale + pipeline.answers + (large?.answers ?? 0),
      ratings: ratings.length * scale + pipeline.counts.ratings + (large?.counts.ratings ?? 0),
      comments: comments.length * scale,
      copied: copies,
      pipelineJob: pipeline.counts,
      ...(large ? { largePipelineJob: large.counts } : {}),
    },
  };
}

/**
 * `copies` copies of the jobs with everything they hold (server/internal/devroutes/bench_seed.go, the clone route: rows as the hooks
 * stored them, under new ids, the video files copied), one copy a request. Returns the rows each copy made.
 */
async function cloneJobs(su, jobs, copies) {
  if (copies < 1) return null;
  const started = Date.now();
  let made = null;
  for (let copy = 1; copy <= copies; copy++) {
    ({ counts: made } = await su.send("/api/screenroom/bench-seed/clone", { method: "POST", body: { jobs: jobs.map((j) => j.id), copy } }));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`  ${copies} copies of ${JSON.stringify(made)}: ${seconds} s`);
  return { copies, each: made };
}

/** A small seeded generator (mulberry32): the same mix on every run, so figures compare between runs. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** PocketBase's datetime text, as its date fields store it. */
const dbDate = (date) => date.toISOString().replace("T", " ");

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A candidate's funnel stamps as a superuser writes them (hidden fields; consentedAt too), up to `stage`: 0 invited,
 * 1 link opened, 2 agreed, 3 a question opened (and answers made at `now`). Invited in the last eight weeks, the link
 * read within two days (an hour before `now` at the latest), agreed a few minutes after, the first question opened
 * 3 to 60 minutes before `now`; a reminder for one in four, after the invite.
 */
function funnelStamps(random, stage, now) {
  const invited = now - HOUR - random() * 56 * 24 * HOUR;
  const stamps = { invitedAt: dbDate(new Date(invited)) };
  const linkOpened = invited + random() * Math.min(48 * HOUR, Math.max(0, now - 70 * MINUTE - invited));
  if (stage >= 1) stamps.linkOpenedAt = dbDate(new Date(linkOpened));
  if (stage >= 2) stamps.consentedAt = dbDate(new Date(linkOpened + random() * 5 * MINUTE));
  if (stage >= 3) stamps.questionOpenedAt = dbDate(new Date(now - 3 * MINUTE - random() * 57 * MINUTE));
  if (random() < 0.25) stamps.remindedEarlyAt = dbDate(new Date(invited + random() * (now - invited)));
  return stamps;
}


/**
 * The pipeline job (issue 15): three text questions and 3,000 candidates. Answers and ratings are real rows, created
 * through the batch API, so the server's hooks derive status, answeredCount, startedAt, completedAt, averageRating
 * and ratingsCount as they do in production; decisions are written as the decision route writes them (decision,
 * decisionBy, decisionAt; a superuser may). Returns the job's id, how many candidates and answers it holds and its
 * mix (the counts route's figures).
 */
async function seedPipelineJob(su, { company, managers, questions, size, emailPrefix = "pipeline" }) {
  const random = seeded(15);
  const jobId = randomId();
  await su.collection("jobs").create({
    id: jobId,
    company: company.id,
    title: `Pipeline job (${size.toLocaleString("en")} candidates)`,
    description: "The benchmark's job with a large candidate pipeline",
    location: "Remote",
    questions: questions.map((q) => q.id),
  });

  const mix = { invited: 0, started: 0, completed: 0, decisions: { advance: 0, hold: 0, reject: 0, none: 0 }, ratings: 0 };
  const candidates = Array.from({ length: size }, (_, i) => {
    const roll = random();
    const answered = roll < 0.35 ? 0 : roll < 0.55 ? 1 + Math.floor(random() * (questions.length - 1)) : questions.length;
    const status = answered === 0 ? "invited" : answered < questions.length ? "started" : "completed";
    mix[status] += 1;
    // most finished interviews are rated (by one manager or both), a few started ones too
    const raters = status === "completed" ? (random() < 0.7 ? (random() < 0.5 ? 2 : 1) : 0) : status === "started" && random() < 0.2 ? 1 : 0;
    // decisions mostly on finished interviews: advance the good, reject some, hold a few
    const d = random();
    const decision =
      status === "completed" ? (d < 0.15 ? "advance" : d < 0.3 ? "reject" : d < 0.38 ? "hold" : "") : status === "started" && d < 0.05 ? "hold" : "";
    mix.decisions[decision || "none"] += 1;
    return { id: randomId(), secret: candidateKey(), n: i + 1, answered, raters, decision, decider: managers[Math.floor(random() * managers.length)] };
  });
  // how far each went before answering: of those with no answer, some opened the link, agreed, or opened the first
  // question and left; the others opened each question they answered and the one after; a generator of its own, so
  // the mix above stays as it was
  const stampsRandom = seeded(1002);
  const stampedAt = Date.now();
  for (const c of candidates) {
    const roll = stampsRandom();
    const stage = c.answered > 0 ? 3 : roll < 0.4 ? 0 : roll < 0.65 ? 1 : roll < 0.8 ? 2 : 3;
    c.stamps = funnelStamps(stampsRandom, stage, stampedAt);
    c.opened = stage === 3 ? Math.min(questions.length, c.answered + 1) : 0;
  }
  await inBatches(su, candidates, 50, (batch, c) => {
    batch.collection("candidates").create({ id: c.id, secret: c.secret, job: jobId, email: `${emailPrefix}-${String(c.n).padStart(4, "0")}@bench.example.com`, ...c.stamps });
  });
  const opened = candidates.flatMap((c) =>
    questions.slice(0, c.opened).map((q, i) => ({
      candidate: c.id,
      question: q.id,
      takesStarted: 0,
      openedAt: i === 0 ? c.stamps.questionOpenedAt : dbDate(new Date(Date.parse(c.stamps.questionOpenedAt.replace(" ", "T")) + i * MINUTE)),
    })),
  );
  await inBatches(su, opened, 50, (batch, p) => batch.collection("question_progress").create(p));

  const answers = candidates.flatMap((c) => questions.slice(0, c.answered).map((q) => ({ id: randomId(), candidate: c, question: q.id })));
  // what they wrote, from a generator of its own: the mix and the ratings drawn from `random` stay as they were
  const speech = seeded(1815);
  await inBatches(su, answers, 25, (batch, a) => {
    batch.collection("answers").create({ id: a.id, candidate: a.candidate.id, question: a.question });
    batch.collection("text_answers").create({ answer: a.id, content: benchSpeech(speech) });
  });

  // each rater gives each answer 1-5 stars around the candidate's own level
  const ratings = answers.flatMap((a) => {
    const level = 1 + ((a.candidate.n * 7) % 5);
    return managers.slice(0, a.candidate.raters).map((manager) => ({
      answer: a.id,
      candidate: a.candidate.id,
      manager,
      stars: Math.min(5, Math.max(1, level + Math.round(random() * 2 - 1))),
    }));
  });
  mix.ratings = ratings.length;
  await inBatches(su, ratings, 50, (batch, r) => batch.collection("ratings").create(r));

  const decided = candidates.filter((c) => c.decision);
  const now = Date.now();
  await inBatches(su, decided, 50, (batch, c) => {
    batch.collection("candidates").update(c.id, { decision: c.decision, decisionBy: c.decider, decisionAt: dbDate(new Date(now - c.n * 60_000)) });
  });

  return { jobId, candidates: candidates.length, answers: answers.length, counts: { candidates: candidates.length, ...mix, questionsOpened: opened.length } };
}
