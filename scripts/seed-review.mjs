// Demo data for the candidate review (issue 7): a second demo candidate who has answered every question of the
// demo job — spoken video answers (a LibriVox clip from pocketsphinx-testdata when installed, else espeak-ng)
// recorded the way MediaRecorder writes them (live webm: no duration, no seek index), and a text answer. The
// media worker then makes the videos seekable and transcribes them, so a newcomer sees transcripts.
// Run by `npm start` on the first run, after scripts/seed.mjs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { DEMO_MANAGER, randomId } from "./seed.mjs";

const LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox";
const SPOKEN = [
  { clip: "sense_and_sensibility_01_austen_64kb-0870", text: "Hello, I am a support engineer and I enjoy helping customers solve their problems." },
  { clip: "sense_and_sensibility_01_austen_64kb-0920", text: "Last month I found a slow database query and made the report ten times faster." },
];

function speech(dir, index) {
  const { clip, text } = SPOKEN[index % SPOKEN.length];
  const wav = join(LIBRIVOX, `${clip}.wav`);
  if (existsSync(wav)) return wav;
  const out = join(dir, `speech-${index}.wav`);
  const r = spawnSync("espeak-ng", ["-s", "140", "-w", out, text], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`espeak-ng failed: ${r.stderr}`);
  return out;
}

function liveWebm(audio, out) {
  const r = spawnSync(
    "bash",
    [
      "-c",
      `ffmpeg -loglevel error -y -f lavfi -i testsrc=size=320x240:rate=15 -i "$1" -shortest ` +
        `-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 200k -c:a libopus -ar 48000 -live 1 -f webm pipe:1 > "$2"`,
      "make-webm",
      audio,
      out,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return readFileSync(out);
}

export async function seedReviewDemo({ url, jobId, superuser, email = "reviewed-candidate@screenroom.test" }) {
  const manager = new PocketBase(url);
  manager.autoCancellation(false);
  await manager.collection("users").authWithPassword(DEMO_MANAGER.email, DEMO_MANAGER.password);
  const job = await manager.collection("jobs").getOne(jobId, { expand: "questions.video_questions_via_question" });
  const candidate = await manager.collection("candidates").create({ job: jobId, email });
  // the candidate's key (its link's credential) is hidden from everyone but superusers
  const su = new PocketBase(url);
  await su.collection("_superusers").authWithPassword(superuser.email, superuser.password);
  const { secret } = await su.collection("candidates").getOne(candidate.id);
  // the candidate ticks 'I agree' on the start screen before answering (issue 17): the real consent route
  const agreed = await fetch(`${url}/api/screenroom/interviews/${encodeURIComponent(secret)}/consent`, { method: "POST", headers: { "X-Candidate-Key": secret } });
  if (!agreed.ok) throw new Error(`the demo candidate's consent answered ${agreed.status}: ${await agreed.text()}`);

  const dir = mkdtempSync(join(tmpdir(), "screenroom-seed-"));
  try {
    let spoken = 0;
    for (const question of job.expand?.questions ?? []) {
      // as the interview stores an answer: POST /api/screenroom/answers with the candidate's key
      const form = new FormData();
      form.append("id", randomId());
      form.append("question", question.id);
      if (question.expand?.video_questions_via_question) {
        const webm = liveWebm(speech(dir, spoken), join(dir, `answer-${spoken}.webm`));
        spoken += 1;
        form.append("file", new File([webm], "answer.webm", { type: "video/webm" }));
      } else {
        form.append("content", "Northwind builds tools I use every day, and I would love to help its customers succeed.");
      }
      const res = await fetch(`${url}/api/screenroom/answers`, { method: "POST", headers: { "X-Candidate-Key": secret }, body: form });
      if (!res.ok) throw new Error(`storing a demo answer answered ${res.status}: ${await res.text()}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return candidate.id;
}
