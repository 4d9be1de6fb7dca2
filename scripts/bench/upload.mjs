// upload: a 20 MB answer through the candidate's screens against a plain multipart create of the same file.
import { chromium } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { candidateKey } from "../bench-seed.mjs";
import { root } from "../lib/pocketbase.mjs";
import { round } from "./numbers.mjs";

/** Upload runs counted (after one warm-up each of the app and the plain upload); the medians are compared. */
const UPLOAD_RUNS = 5;

/** A real recording of about 20 MB (noise compresses poorly), made once with ffmpeg: { path, seconds }. */
export function benchAnswer() {
  const path = join(root, ".cache", "bench", "answer-20mb.webm");
  const seconds = 10.6;
  if (!existsSync(path)) {
    mkdirSync(join(root, ".cache", "bench"), { recursive: true });
    const made = spawnSync("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x480:r=25,geq=random(1)*255:128:128",
      "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000", "-t", String(seconds), "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
      "-b:v", "16M", "-minrate", "16M", "-maxrate", "16M", "-bufsize", "16M", "-c:a", "libopus", "-shortest", path], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("ffmpeg could not make the 20 MB answer");
  }
  return { path, seconds };
}

/** Chromium as the bench drives it: the product's own (Debian's), with a fake camera for the screens. */
export function launchBenchChromium({ camera = true } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      ...(camera ? ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"] : [])],
  });
}

/** Chromium's network emulation on `page`: its uploads at most `bytesPerSecond` (null: no throttle). */
async function throttleUploads(context, page, bytesPerSecond) {
  if (!bytesPerSecond) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/**
 * One take through the candidate's screens, in a fresh context of `browser`: `file` (a recording `recordedSeconds`
 * long) handed to the screens by a stand-in MediaRecorder, a timeslice's bytes at a time, `speedup` times faster than
 * it was recorded (the slices keep a real recorder's size), the last slice held until 'Stop Recording' as a recorder
 * holds it; 'Submit answer' clicked from inside the page the moment it can be. With `uploadBytesPerSecond`, the page's
 * uploads go through Chromium's throttle. With `fileUrl` (a same-origin path the server serves), the page fetches the
 * file from there instead of from Playwright's route: a route carries the body through Playwright's protocol, and a
 * 97 MB body closed the page. Resolves with the click on 'Stop Recording' → the answer request confirmed
 * (ms), and for information: → 'Submit answer' clickable, its click → confirmed, the parts sent, the answer request's
 * size.
 */
export async function takeThroughScreens(browser, { url, file, fileUrl = null, recordedSeconds, candidateKey: key, questionId, speedup = 1, uploadBytesPerSecond = null }) {
  const context = await browser.newContext({ permissions: ["camera", "microphone"] });
  if (!fileUrl) await context.route("**/__bench/answer.webm", (route) => route.fulfill({ body: file, contentType: "video/webm" }));
  await context.addInitScript(({ recordedSeconds, speedup, fileUrl }) => {
    class BenchRecorder {
      constructor() {
        this.state = "inactive";
        this.mimeType = "video/webm;codecs=vp9,opus";
      }
      static isTypeSupported(type) {
        return type.startsWith("video/webm");
      }
      start(timeslice = 1000) {
        this.state = "recording";
        this.sent = 0;
        this.ready = fetch(fileUrl ?? "/__bench/answer.webm")
          .then((res) => res.blob())
          .then((blob) => {
            this.blob = blob;
            // the bytes a recorder of this file emits per timeslice
            this.slice = Math.ceil((blob.size * timeslice) / (recordedSeconds * 1000));
            globalThis.__benchTakeReady = true;
            this.timer = setInterval(() => {
              // the last slice stays with the recorder until it stops
              if (this.blob.size - this.sent <= this.slice) {
                globalThis.__benchLastSlice = true;
                return;
              }
              this.emit(this.sent + this.slice);
            }, timeslice / speedup);
          });
      }
      emit(end) {
        const data = this.blob.slice(this.sent, end, this.blob.type);
        this.sent = end;
        this.ondataavailable?.({ data });
      }
      async stop() {
        this.state = "inactive";
        await this.ready;
        clearInterval(this.timer);
        this.emit(this.blob.size);
        this.onstop?.();
      }
    }
    globalThis.MediaRecorder = BenchRecorder;
    // in-page timestamps: the clicks on 'Stop Recording' and 'Submit answer', 'Submit answer' becoming
    // clickable, and the start and end of the answer request; the parts sent and the answer request's size
    const marks = (globalThis.__benchMarks = { parts: 0 });
    globalThis.document.addEventListener("click", (event) => {
      const label = event.target?.closest?.("button")?.textContent ?? "";
      if (label.includes("Stop Recording")) marks.stop ??= performance.now();
      if (label.includes("Submit answer")) marks.click ??= performance.now();
    }, true);
    // the fastest candidate: 'Submit answer' is clicked the moment it can be, from inside the page (a click sent
    // by Playwright would add its own round trip, 100 ms and more here, to the figure)
    new globalThis.MutationObserver(() => {
      if (marks.stop === undefined || marks.submitReady !== undefined) return;
      const submit = [...globalThis.document.querySelectorAll("button")].find((b) => b.textContent?.includes("Submit answer"));
      if (submit && !submit.disabled) {
        marks.submitReady = performance.now();
        submit.click();
      }
    }).observe(globalThis.document, { childList: true, subtree: true, attributes: true });
    const fetchPage = globalThis.fetch;
    globalThis.fetch = function (input, init) {
      if (String(input?.url ?? input).includes("/parts/")) marks.parts += 1;
      return fetchPage.call(this, input, init);
    };
    const open = globalThis.XMLHttpRequest.prototype.open;
    globalThis.XMLHttpRequest.prototype.open = function (method, requestUrl, ...rest) {
      this.__benchAnswer = String(requestUrl).endsWith("/api/screenroom/answers");
      return open.call(this, method, requestUrl, ...rest);
    };
    const send = globalThis.XMLHttpRequest.prototype.send;
    globalThis.XMLHttpRequest.prototype.send = function (body) {
      if (this.__benchAnswer) {
        marks.send ??= performance.now();
        marks.answerBodyBytes ??= typeof body === "string" ? body.length : [...body.values()].reduce((sum, v) => sum + (v.size ?? String(v).length), 0);
        this.addEventListener("loadend", () => {
          if (this.status === 200) marks.done ??= performance.now();
        });
      }
      return send.call(this, body);
    };
  }, { recordedSeconds, speedup, fileUrl });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/candidates/${key}/questions/${questionId}`);
    await page.getByRole("button", { name: "View question" }).click();
    // A question with preparation time (issue 17) offers 'Start recording now' and starts recording by itself when
    // the time runs out, which can come first when the camera opens late: either way the take is then recording.
    const start = page.getByRole("button", { name: /^Start Recording$|^Start recording now$/ });
    const stop = page.getByRole("button", { name: "Stop Recording" });
    // bound: far above the camera's slowest opening under load
    for (const until = Date.now() + 60_000; !(await stop.isVisible()); await page.waitForTimeout(50)) {
      if (Date.now() > until) throw new Error("The take never started recording: no 'Stop Recording' within 60 s.");
      // the button may go between two looks (the recording started by itself): no look waits for it
      const startable = (await start.isVisible()) && (await start.isEnabled({ timeout: 500 }).catch(() => false));
      if (startable) await start.click({ timeout: 1000 }).catch(() => undefined);
    }
    await page.waitForFunction(() => globalThis.__benchTakeReady === true);
    // the take is in the page: stop intercepting, or Playwright would carry the upload's bytes through its protocol
    await context.unrouteAll();
    await throttleUploads(context, page, uploadBytesPerSecond);
    // recording: every slice but the last goes out at the recorder's pace (bound: the recording's time, and a minute)
    const recordingMs = (recordedSeconds * 1000) / speedup;
    await page.waitForFunction(() => globalThis.__benchLastSlice === true, null, { polling: 50, timeout: recordingMs + 60_000 });
    await page.getByRole("button", { name: "Stop Recording" }).click();
    // bound: far above the slowest upload of what a throttled link may still hold at the stop
    await page.waitForFunction(() => globalThis.__benchMarks.done !== undefined, null, { polling: 5, timeout: recordingMs + 600_000 });
    const marks = await page.evaluate(() => globalThis.__benchMarks);
    if (process.env.BENCH_DEBUG) {
      console.log(
        `upload: in page: stop→submit clickable ${Math.round(marks.submitReady - marks.stop)} ms, stop→click ${Math.round(marks.click - marks.stop)} ms, ` +
          `click→send ${Math.round(marks.send - marks.click)} ms, send→done ${Math.round(marks.done - marks.send)} ms, ` +
          `${marks.parts} parts, answer request ${marks.answerBodyBytes} bytes`,
      );
    }
    return {
      ms: Math.round(marks.done - marks.stop),
      stopToSubmit: Math.round(marks.submitReady - marks.stop),
      clickToDone: Math.round(marks.done - marks.click),
      parts: marks.parts,
      answerBodyBytes: marks.answerBodyBytes,
    };
  } finally {
    await context.close();
  }
}

/**
 * A blank page of a Chromium of its own holding `file` in memory, and `send(answerId, token)`: one plain multipart
 * create of it (the records API's create of the video answer, as the superuser `token`: candidates may not create
 * answers through the records API), timed in the page (ms). With `uploadBytesPerSecond`, through Chromium's throttle;
 * `fileUrl` as for takeThroughScreens.
 */
export async function plainUploader(url, file, { uploadBytesPerSecond = null, fileUrl = null } = {}) {
  const browser = await launchBenchChromium({ camera: false });
  const context = await browser.newContext();
  if (!fileUrl) await context.route("**/__bench/answer.webm", (route) => route.fulfill({ body: file, contentType: "video/webm" }));
  const page = await context.newPage();
  await page.goto(`${url}/api/health`);
  await page.evaluate(async (fileUrl) => {
    globalThis.__benchFile = await (await fetch(fileUrl ?? "/__bench/answer.webm")).blob();
  }, fileUrl);
  await context.unrouteAll();
  await throttleUploads(context, page, uploadBytesPerSecond);
  return {
    send: (answerId, token) =>
      page.evaluate(
        async ({ answerId, token }) => {
          const form = new FormData();
          form.append("answer", answerId);
          form.append("file", globalThis.__benchFile, "answer.webm");
          const started = performance.now();
          const status = await new Promise((resolve) => {
            const xhr = new globalThis.XMLHttpRequest();
            xhr.open("POST", "/api/collections/video_answers/records");
            xhr.setRequestHeader("authorization", token);
            xhr.onloadend = () => resolve(xhr.status);
            xhr.send(form);
          });
          if (status !== 200) throw new Error(`plain upload failed: ${status}`);
          return Math.round(performance.now() - started);
        },
        { answerId, token },
      ),
    close: () => browser.close(),
  };
}

/**
 * A 20 MB answer: the time from the click on 'Stop Recording' to the end of the answer request the server confirmed
 * (POST /api/screenroom/answers), through the real candidate screens, with 'Submit answer' clicked as soon as it can
 * be, beside one plain multipart create of the same file. A stand-in MediaRecorder plays the part of the recorder: it
 * hands the screens the 20 MB file in slices, one per timeslice, at the pace the file was recorded at (10.6 s), and
 * 'Stop Recording' is clicked when only the last slice (a whole timeslice of it) is left, as a recorder holds it
 * until it stops. The screens send each slice to the server as it comes (staged parts), so the figure counts what
 * is left at the stop: the last slice, storing the take on the device, and the answer request.
 * Also measured, for information: 'Stop Recording' → 'Submit answer' clickable, the click → confirmed, the parts
 * sent and the size of the answer request. App and plain runs alternate; one warm-up each, then the median of
 * UPLOAD_RUNS each (3 runs in a row each swung the ratio between 1.4 and 2.6).
 */
export async function uploadRatio(url, superuserCredentials, seed) {
  const { path, seconds } = benchAnswer();
  const file = readFileSync(path);
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(superuserCredentials.email, superuserCredentials.password);
  const job = await su.collection("jobs").getOne(seed.jobId, { expand: "questions.video_questions_via_question" });
  const videoQuestion = job.expand.questions.find((q) => q.expand?.video_questions_via_question);
  // its key (`secret`) set here, as only a superuser may: the interview link is `/candidates/{key}`
  const freshCandidate = async (n) => {
    const secret = candidateKey();
    const created = await su.collection("candidates").create({ job: job.id, secret, email: `upload-${n}-${Date.now()}@bench.example.com`, consentedAt: new Date().toISOString().replace("T", " ") });
    return { ...created, secret };
  };

  const browser = await launchBenchChromium();
  const app = [];
  const info = { stopToSubmit: [], clickToDone: [], parts: [], answerBodyBytes: [] };
  const appRun = async (n) => {
    const candidate = await freshCandidate(`app${n}`);
    return takeThroughScreens(browser, { url, file, recordedSeconds: seconds, candidateKey: candidate.secret, questionId: videoQuestion.id });
  };
  const plainUpload = await plainUploader(url, file);
  const plainRun = async (n) => {
    const candidate = await freshCandidate(`plain${n}`);
    const answer = await su.collection("answers").create({ candidate: candidate.id, question: videoQuestion.id });
    return plainUpload.send(answer.id, su.authStore.token);
  };

  // App and plain runs alternate, so both meet the same moments of a shared machine; the first of each warms up
  // (a new browser, the server's first upload) and is not counted.
  const plain = [];
  try {
    for (let n = 0; n <= UPLOAD_RUNS; n++) {
      const run = await appRun(n);
      const ms = await plainRun(n);
      if (process.env.BENCH_DEBUG) console.log(`upload: run ${n}${n === 0 ? " (warm-up)" : ""}: app ${run.ms} ms, plain ${ms} ms`);
      if (n === 0) continue;
      app.push(run.ms);
      for (const key of Object.keys(info)) info[key].push(run[key]);
      plain.push(ms);
    }
  } finally {
    await browser.close();
    await plainUpload.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    bytes: file.length,
    appMs: median(app),
    plainMs: median(plain),
    ratio: round(median(app) / median(plain)),
    appRuns: app,
    plainRuns: plain,
    // informational, not budgets
    stopToSubmitMs: median(info.stopToSubmit),
    clickToDoneMs: median(info.clickToDone),
    parts: median(info.parts),
    answerBodyBytes: median(info.answerBodyBytes),
  };
}
