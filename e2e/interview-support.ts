// Seeds and inspections for the candidate interview journeys: a company with two video questions and one text
// question, a job and an invited candidate, made through the API as the manager, with the candidate's key (its
// interview link is `/candidates/{key}`; `candidate.id` stays the record id the stored answers name); what the
// server stored, read as a superuser; and ffprobe on a stored video.
import type { BrowserContext, Page, Route } from "@playwright/test";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consentAs, createCompany, createQuestion, createUser, keyOf, superuser, uniqueEmail } from "./support";

/**
 * `consent` (default true): the candidate already agreed on the start screen, through the real route, so a journey may
 * open a question directly; pass false to start from the start screen's 'I agree'.
 */
export async function seedInterview(
  questions: { kind: "video" | "text"; title: string; timeout?: number; canPreview?: boolean; takes?: number; preparation?: number }[],
  { consent = true, welcomeMessage = "", privacyUrl = "" }: { consent?: boolean; welcomeMessage?: string; privacyUrl?: string } = {},
) {
  const manager = await createUser();
  const company = await createCompany(manager.pb, "Globex Hiring");
  const made: RecordModel[] = [];
  for (const q of questions) {
    made.push(
      await createQuestion(manager.pb, company.id, q.kind, {
        title: q.title,
        description: `About: ${q.title}`,
        timeout: q.timeout ?? 60,
        canPreview: q.canPreview ?? true,
        takes: q.takes ?? 1,
        preparation: q.preparation,
      }),
    );
  }
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Support engineer",
    description: "Help our customers",
    location: "Remote",
    welcomeMessage,
    questions: made.map((q) => q.id),
  });
  if (privacyUrl) await manager.pb.collection("companies").update(company.id, { privacyUrl });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("candidate") });
  const key = await keyOf(candidate.id);
  if (consent) await consentAs(key);
  return { manager, company, questions: made, job, candidate, key };
}

export type StoredAnswer = RecordModel & {
  expand?: { video_answers_via_answer?: RecordModel[] | RecordModel; text_answers_via_answer?: RecordModel[] | RecordModel };
};

/** The answers the server holds for a candidate, with their kind records, as a superuser sees them. */
export async function storedAnswers(candidateId: string): Promise<StoredAnswer[]> {
  const su = await superuser();
  return su.collection("answers").getFullList<StoredAnswer>({
    filter: su.filter("candidate = {:c}", { c: candidateId }),
    expand: "video_answers_via_answer,text_answers_via_answer",
    sort: "created",
  });
}

export function kindOf(answer: StoredAnswer, name: "video_answers_via_answer" | "text_answers_via_answer") {
  const value = answer.expand?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Polls until the candidate has `count` answers (uploads run in the background), then returns them. */
export async function waitForAnswers(candidateId: string, count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answers = await storedAnswers(candidateId);
    if (answers.length >= count) return answers;
    if (Date.now() > deadline) throw new Error(`expected ${count} answers, found ${answers.length}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * ffprobe's streams of a stored (protected) answer video, downloaded with a superuser file token. The
 * record is read afresh: the media worker replaces the upload with its seekable copy under a new name.
 */
export async function probeStoredVideo(videoAnswer: RecordModel) {
  const su: PocketBase = await superuser();
  const token = await su.files.getToken();
  let res: Response | undefined;
  let current = videoAnswer;
  for (let attempt = 0; attempt < 3; attempt++) {
    current = await su.collection("video_answers").getOne(videoAnswer.id);
    res = await fetch(su.files.getURL(current, current.file as string, { token }));
    if (res.ok) break; // a 404 means the worker swapped the file between the read and the download
  }
  if (!res?.ok) throw new Error(`download failed: ${res?.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-probe-")), current.file as string);
  writeFileSync(path, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path], { encoding: "utf8" });
  const probe = JSON.parse(out) as { streams: { codec_type: string; codec_name: string }[]; format: { format_name: string } };
  return { size: bytes.length, streams: probe.streams, format: probe.format.format_name };
}

/** True in the Firefox project (Debian's firefox-esr over WebDriver BiDi: Playwright's `_bidiFirefox`). */
/** The answer uploads box of the candidate's screens (interview-upload-status.tsx). */
export const uploadsBox = (page: Page) => page.getByRole("status", { name: "Answer uploads" });

/**
 * The answers still on their way: the uploads box says so until the last one arrived (the box itself stays on the
 * screen, saying 'Answer uploaded', until the candidate moves on). Count 0 once nothing is left to send.
 */
export const stillSending = (page: Page) => uploadsBox(page).getByText("Please keep this page open");

export const isFirefox = (browserName: string) => browserName === "firefox" || browserName === "_bidiFirefox";

/**
 * The codecs each browser's MediaRecorder writes, as ffprobe names them in the stored (remuxed, not re-encoded)
 * file: the interview asks for vp9 + opus webm first, and Firefox, which has no vp9 MediaRecorder, gives vp8 + opus.
 */
export function expectedCodecs(browserName: string) {
  return isFirefox(browserName) ? { video: "vp8", audio: "opus" } : { video: "vp9", audio: "opus" };
}

/**
 * Takes the browser context off the network, or puts it back. Chromium emulates it (context.setOffline); Playwright's
 * BiDi Firefox (1.56) has no offline emulation (setOffline does nothing there), so every request the context makes
 * fails as an offline browser fails it (a network error, no response), and coming back fires 'online' on the page
 * as the browser would.
 */
export async function setOffline(context: BrowserContext, offline: boolean, browserName: string) {
  if (!isFirefox(browserName)) return context.setOffline(offline);
  // page.route: a context.route added after a page opened does not reach that page in BiDi Firefox (1.56)
  for (const page of context.pages()) {
    if (offline) await page.route("**/*", cutOff);
    else {
      await page.unroute("**/*", cutOff);
      await page.evaluate(() => window.dispatchEvent(new Event("online")));
    }
  }
}
const cutOff = (route: Route) => route.abort("internetdisconnected");

/**
 * The JSON bodies the page sends to a URL ending in `suffix`. Chromium gives them on the request (postData);
 * Playwright's BiDi Firefox (1.56) gives no request bodies (postData is null), so there the page's own
 * XMLHttpRequest.send and fetch record the string bodies they are given for that URL.
 */
export async function requestBodies(page: Page, suffix: string, browserName: string): Promise<() => Promise<string[]>> {
  if (!isFirefox(browserName)) {
    const bodies: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith(suffix)) bodies.push(request.postData() ?? "");
    });
    return async () => bodies;
  }
  await page.addInitScript((end) => {
    const w = window as unknown as { __bodies: string[] };
    w.__bodies = [];
    const open = XMLHttpRequest.prototype.open;
    const send = XMLHttpRequest.prototype.send;
    const urls = new WeakMap<XMLHttpRequest, string>();
    XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
      urls.set(this, String(args[1]));
      return (open as (...a: unknown[]) => void).apply(this, args);
    };
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      if (urls.get(this)?.endsWith(end)) w.__bodies.push(typeof body === "string" ? body : "");
      return send.call(this, body);
    };
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith(end)) w.__bodies.push(typeof init?.body === "string" ? init.body : "");
      return original(input, init);
    };
  }, suffix);
  return () => page.evaluate(() => (window as unknown as { __bodies: string[] }).__bodies);
}

/**
 * Keeps every camera stream the page opens in window.__streams, so a test can check that leaving the video answer
 * stopped all tracks (the camera light goes off).
 */
export async function trackCameraStreams(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __streams: MediaStream[] };
    w.__streams = [];
    if (!navigator.mediaDevices) return; // about:blank before the app: Firefox has no mediaDevices there
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      w.__streams.push(stream);
      return stream;
    };
  });
}

export async function liveCameraTracks(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { __streams: MediaStream[] }).__streams
        .flatMap((s) => s.getTracks())
        .filter((t) => t.readyState === "live").length,
  );
}

/** Records one take of about `ms` milliseconds on the current video answer form. */
export async function recordTake(page: Page, ms = 2500) {
  await page.getByRole("button", { name: "Start Recording" }).click();
  await page.getByRole("button", { name: "Stop Recording" }).waitFor();
  await page.waitForTimeout(ms);
  await page.getByRole("button", { name: "Stop Recording" }).click();
  await page.getByLabel("Your recording").waitFor();
}
