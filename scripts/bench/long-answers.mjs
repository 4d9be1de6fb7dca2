// Long answers for the benches of issue 20 point 4 (slow-link.mjs, submit-time.mjs): WebM files made once with ffmpeg
// at the recorder's cap (src/features/interview/upload/media-recorder.ts: 1.2 Mbit/s video of noise, which does not
// compress, and 64 kbit/s Opus; a 10-minute answer ≈ 97 MB), cached in .cache/bench.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { candidateKey } from "../bench-seed.mjs";
import { root } from "../lib/pocketbase.mjs";
import { logoFile, randomId } from "../seed.mjs";

/** Where the `minutes`-long answer is (made on first use). */
export function answerPath(minutes) {
  const path = join(root, ".cache", "bench", `answer-${minutes}min-capped.webm`);
  if (!existsSync(path)) {
    mkdirSync(join(root, ".cache", "bench"), { recursive: true });
    console.log(`making a ${minutes}-minute answer with ffmpeg (once, cached in .cache/bench)…`);
    const made = spawnSync("ffmpeg", ["-loglevel", "error", "-y",
      "-f", "lavfi", "-i", "nullsrc=s=320x180:r=15,geq=random(1)*255:128:128",
      "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
      "-t", String(minutes * 60), "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
      "-b:v", "1200k", "-minrate", "1200k", "-maxrate", "1200k", "-bufsize", "1200k",
      "-c:a", "libopus", "-b:a", "64k", "-shortest", path], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("ffmpeg could not make the answer");
  }
  return path;
}

/** The `minutes`-long answer's bytes. */
export function answerOf(minutes) {
  return readFileSync(answerPath(minutes));
}

/**
 * On the server at `url`, as the superuser `credentials`: a company with a 10-minute video question (every answer fits
 * its time) in a job, and `newCandidate()`, a candidate of it who consented: {id, secret}.
 */
export async function longAnswerQuestion(url, credentials) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(credentials.email, credentials.password);
  const user = await su.collection("users").create({ email: `probe-${randomId()}@screenroom.test`, password: "probe-password-123", passwordConfirm: "probe-password-123", firstName: "Long", lastName: "Answer", verified: true });
  const company = await su.collection("companies").create({ name: "Long answer probe", website: "https://probe.example.com", logo: logoFile(), managers: [user.id] });
  const question = await su.collection("questions").create({ company: company.id, title: "Tell us", description: "At length", timeout: 600 });
  await su.collection("video_questions").create({ question: question.id, takes: 1 });
  const job = await su.collection("jobs").create({ company: company.id, title: "Probe job", description: "A job", location: "Remote", questions: [question.id] });
  const newCandidate = async () => {
    const secret = candidateKey();
    const record = await su.collection("candidates").create({ job: job.id, secret, email: `long-${randomId()}@probe.example.com`, consentedAt: new Date().toISOString().replace("T", " ") });
    return { id: record.id, secret };
  };
  return { su, question, newCandidate };
}
