// Helpers for the review journey: a company with a job whose candidate answers, recordings made like the
// candidate's browser makes them, and uploads as the candidate (batch with X-Candidate-Id, as the app does).
import type { Page } from "@playwright/test";
import PocketBase, { type RecordModel } from "pocketbase";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { createCompany, createQuestion, createUser, uniqueEmail } from "./support";

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
  return { manager, company, job, candidate, questions: { video, text, skipped } };
}

function asCandidate(candidateId: string) {
  const pb = new PocketBase(E2E.appUrl);
  pb.autoCancellation(false);
  pb.beforeSend = (url, options) => {
    options.headers = { ...(options.headers as Record<string, string>), "X-Candidate-Id": candidateId };
    return { url, options };
  };
  return pb;
}

function randomId() {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 15 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
}

export async function answerWithVideo(candidateId: string, questionId: string, webm: Uint8Array<ArrayBuffer>) {
  const id = randomId();
  const batch = asCandidate(candidateId).createBatch();
  batch.collection("answers").create({ id, candidate: candidateId, question: questionId });
  batch.collection("video_answers").create({ answer: id, file: new File([webm], "answer.webm", { type: "video/webm" }) });
  const [answer, kind] = await batch.send();
  return { answer: answer!.body as RecordModel, videoAnswer: kind!.body as RecordModel };
}

export async function answerWithText(candidateId: string, questionId: string, content: string) {
  const id = randomId();
  const batch = asCandidate(candidateId).createBatch();
  batch.collection("answers").create({ id, candidate: candidateId, question: questionId });
  batch.collection("text_answers").create({ answer: id, content });
  const [answer] = await batch.send();
  return answer!.body as RecordModel;
}

/**
 * Records `ms` of the fake camera and microphone (a LibriVox clip) with MediaRecorder in the page, as the
 * interview screen does (vp9 + opus webm, 1 s chunks), and returns the bytes.
 */
export async function recordInBrowser(page: Page, ms: number): Promise<Uint8Array<ArrayBuffer>> {
  const base64 = await page.evaluate(async (duration) => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
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
  }, ms);
  return new Uint8Array(Buffer.from(base64, "base64"));
}
