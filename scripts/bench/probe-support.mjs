// What the worker probes share (worker-resume.mjs, worker-throughput.mjs): the worker's output lines with a wait for
// one, and a company with one video question and a job to store answers to.
import { logoFile, randomId } from "../seed.mjs";

/**
 * The worker's output lines, each with the time it arrived (performance.now()), and a wait for one: `waitFor(match,
 * what, from)` resolves with the first line from index `from` on that matches, or rejects after `boundMs`.
 */
export function outputLog({ boundMs, verbose = false }) {
  const lines = [];
  const waiters = new Set();
  return {
    lines,
    onOutput(text) {
      for (const line of text.split("\n").filter(Boolean)) {
        lines.push({ at: performance.now(), line });
        if (verbose) console.log(`  ${line}`);
      }
      for (const check of waiters) check();
    },
    waitFor(match, what, from = 0) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(() => reject(new Error(`${what}: not within ${boundMs} ms`))), boundMs);
        const check = () => {
          const found = lines.slice(from).find((l) => match(l.line));
          if (found) finish(() => resolve(found));
        };
        const finish = (settle) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/**
 * A company with one video question (`timeout` seconds) and a job, made by the superuser `su`: a function storing a
 * new candidate's answer with `bytes` as its file (a video_answers record, as the answers route stores one).
 */
export async function videoAnswers(su, { name, timeout = 60 }) {
  const user = await su.collection("users").create({
    email: `probe-${randomId()}@screenroom.test`,
    password: "probe-password-123",
    passwordConfirm: "probe-password-123",
    firstName: name,
    lastName: "Probe",
    verified: true,
  });
  const company = await su.collection("companies").create({ name: `${name} probe`, website: "https://probe.example.com", logo: logoFile(), managers: [user.id] });
  const question = await su.collection("questions").create({ company: company.id, title: "Tell us", description: "About yourself", timeout });
  await su.collection("video_questions").create({ question: question.id, takes: 2 });
  const job = await su.collection("jobs").create({ company: company.id, title: "Probe job", description: "A job", location: "Remote", questions: [question.id] });
  return async (bytes) => {
    const candidate = await su.collection("candidates").create({ job: job.id, email: `candidate-${randomId()}@probe.example.com`, consentedAt: new Date().toISOString().replace("T", " ") });
    const answer = await su.collection("answers").create({ candidate: candidate.id, question: question.id });
    return su.collection("video_answers").create({ answer: answer.id, file: new File([bytes], "answer.webm", { type: "video/webm" }) });
  };
}
