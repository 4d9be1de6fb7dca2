// Helpers for the review journey: a company with a job whose candidate answers, recordings made like the
// candidate's browser makes them, and uploads as the candidate (POST /api/screenroom/answers with the candidate's
// key in X-Candidate-Key, as the app does: candidates cannot create answers through the records or batch API).
import type { Page } from "@playwright/test";
import type { RecordModel } from "pocketbase";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeAudio } from "../scripts/lib/fake-media.mjs";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { consentAs, createCompany, createQuestion, createUser, keyOf, uniqueEmail } from "./support";

export async function reviewWorld() {
  const manager = await createUser({ firstName: "Maria", lastName: "Manager" });
  const company = await createCompany(manager.pb, "Review Co");
  const video = await createQuestion(manager.pb, company.id, "video", { title: "Introduce yourself" });
  const text = await createQuestion(manager.pb, company.id, "text", { title: "Why us?" });
  const skipped = await createQuestion(manager.pb, company.id, "text", { title: "Anything else?" });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Support engineer",
    description: "Help our customers",
    location: "Remote",
    questions: [video.id, text.id, skipped.id],
  });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("candidate") });
  await consentAs(await keyOf(candidate.id));
  // `key` opens the interview and authorises the candidate's uploads; `candidate.id` names it on the review screen
  return { manager, company, job, candidate, key: await keyOf(candidate.id), questions: { video, text, skipped } };
}

function randomId() {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 15 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
}

type StoredAnswer = { answer: RecordModel; kind: "video_answers" | "text_answers"; record: RecordModel };

/**
 * POST /api/screenroom/answers as the candidate whose key is `key` (server/internal/answers): the answer
 * and its kind record in one multipart request, a `file` for a video answer or a `content` for a text one.
 */
async function postAnswer(key: string, fields: Record<string, string | File>): Promise<StoredAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof File) form.append(name, value, value.name);
    else form.append(name, value);
  }
  const res = await fetch(`${E2E.appUrl}/api/screenroom/answers`, { method: "POST", headers: { "X-Candidate-Key": key }, body: form });
  if (!res.ok) throw new Error(`POST /api/screenroom/answers: ${res.status} ${await res.text()}`);
  return (await res.json()) as StoredAnswer;
}

/** A video answer through the answers route as the candidate's browser sends it, after its consent (idempotent). */
export async function answerWithVideo(key: string, questionId: string, webm: Uint8Array<ArrayBuffer>) {
  await consentAs(key);
  const file = new File([webm], "answer.webm", { type: "video/webm" });
  const { answer, record } = await postAnswer(key, { id: randomId(), question: questionId, file });
  return { answer, videoAnswer: record };
}

/** A text answer through the answers route, after the candidate's consent (idempotent). */
export async function answerWithText(key: string, questionId: string, content: string) {
  await consentAs(key);
  const { answer } = await postAnswer(key, { id: randomId(), question: questionId, content });
  return answer;
}

/**
 * Records `ms` of the fake camera and microphone (a LibriVox clip) with MediaRecorder in the page, as the
 * interview screen does (vp9 + opus webm where the browser has it, else vp8 + opus: Firefox; 1 s chunks), and returns
 * the bytes. Chromium's fake microphone plays the clip itself (--use-file-for-fake-audio-capture); Firefox's plays a
 * tone and cannot play a file, so with `clipAsMicrophone` the page plays the same clip in an <audio> element captured
 * as the stream's audio track (the camera stays Firefox's fake one), so the transcript has speech to find.
 */
export async function recordInBrowser(page: Page, ms: number, { clipAsMicrophone = false } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const clip = clipAsMicrophone ? readFileSync(fakeAudio).toString("base64") : null;
  const base64 = await page.evaluate(async ({ duration, clip }) => {
    let stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
    if (clip) {
      // an <audio> element captured as a stream: Firefox's Web Audio waits for an output device a CI machine lacks
      const bytes = Uint8Array.from(atob(clip), (c) => c.charCodeAt(0));
      const player = document.createElement("audio");
      player.src = URL.createObjectURL(new Blob([bytes], { type: "audio/wav" }));
      const capture = player as HTMLAudioElement & { mozCaptureStream?: () => MediaStream; captureStream?: () => MediaStream };
      const microphone = (capture.mozCaptureStream ?? capture.captureStream)!.call(player);
      await player.play();
      stream.getAudioTracks().forEach((track) => track.stop());
      stream = new MediaStream([...stream.getVideoTracks(), ...microphone.getAudioTracks()]);
    }
    const mimeType = MediaRecorder.isTypeSupported("video/webm;codecs=vp9,opus") ? "video/webm;codecs=vp9,opus" : "video/webm";
    const recorder = new MediaRecorder(stream, { mimeType });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start(1000);
    await new Promise((resolve) => setTimeout(resolve, duration));
    recorder.stop();
    await stopped;
    stream.getTracks().forEach((track) => track.stop());
    const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, { duration: ms, clip });
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/** ffprobe's video and audio codec of a recording made in the browser (before any upload). */
export function recordedCodecs(bytes: Uint8Array) {
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-recording-")), "recording.webm");
  writeFileSync(path, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path], { encoding: "utf8" });
  const streams = (JSON.parse(out) as { streams: { codec_type: string; codec_name: string }[] }).streams;
  return {
    video: streams.find((s) => s.codec_type === "video")?.codec_name,
    audio: streams.find((s) => s.codec_type === "audio")?.codec_name,
  };
}
