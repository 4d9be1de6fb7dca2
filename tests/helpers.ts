// Helpers for integration suites: real clients against the PocketBase started by global-setup.
import PocketBase, { ClientResponseError, type RecordModel } from "pocketbase";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import * as mail from "../scripts/lib/maildev.mjs";
import { UNTHROTTLED, freePort, startPocketBase, stopChild } from "../scripts/lib/pocketbase.mjs";
import { randomBytes } from "node:crypto";

let ownServerUrl: string | undefined;
export const pbUrl = () => ownServerUrl ?? inject("pbUrl");

/** A suite's own PocketBase (see `useOwnServer`). */
export interface OwnServer {
  url: string;
  port: number;
  dataDir: string;
  /** what it printed (since its last start) */
  output: () => string;
  /** stops it, and deletes its data unless the data dir was given */
  stop: () => Promise<void>;
  /** SIGKILL, as a crash or the OOM killer ends it: no shutdown of its own; resolves once the process is gone */
  kill: () => Promise<void>;
  /**
   * starts it again on its data (on its own port unless told another), as after a crash: every session still valid;
   * points the helpers at it and resolves once it is healthy
   */
  start: (port?: number) => Promise<void>;
}

/**
 * A PocketBase of the suite's own (fresh data, the project's migrations and hooks, the shared MailDev), to which
 * every helper of this file points until `stop`. For suites that need a server with nobody else's records (the
 * media worker's queue), with settings of their own (low rate limits), or one they crash and start again.
 */
export async function useOwnServer(
  env: Record<string, string> = {},
  options: { dataDir?: string; port?: number; wrap?: string[] } = {},
): Promise<OwnServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "screenroom-own-"));
  const port = options.port ?? (await freePort());
  let server: Awaited<ReturnType<typeof startPocketBase>> | undefined;
  const start = async (at = port) => {
    server = await startPocketBase({
      port: at,
      dataDir,
      wrap: options.wrap,
      publicDir: join(dataDir, "public"),
      // created once: setting a superuser's password again (an upsert) signs out every session of theirs, which a
      // server started again after a crash does not do
      superuser: server ? undefined : inject("superuser"),
      env: { ...UNTHROTTLED, SCREENROOM_TEST_CLOCK: "1", APP_URL: "http://app.screenroom.test", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(inject("mailSmtpPort")), ...env },
    });
    ownServerUrl = server.url;
  };
  await start();
  return {
    url: server!.url,
    port,
    dataDir,
    output: () => server?.output() ?? "",
    start,
    kill: () => stopChild(server?.child, "SIGKILL"),
    stop: async () => {
      ownServerUrl = undefined;
      await server?.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export const mailUrl = () => inject("mailUrl");

const fixtures = join(import.meta.dirname, "fixtures");
export const fixture = (name: string) => readFileSync(join(fixtures, name));
export const pngFile = (name = "logo.png") => new File([fixture("logo.png")], name, { type: "image/png" });
export const webmFile = (name = "answer.webm") => new File([fixture("answer.webm")], name, { type: "video/webm" });

let counter = 0;
/** A unique, lower-case e-mail per call, so suites never collide on the shared server. */
export function uniqueEmail(prefix = "user") {
  counter += 1;
  // the counter is this file's alone (each test file has its modules to itself), so two files asking in the same
  // millisecond would get the same address without the random part, and the second sign-up would be refused
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomBytes(4).toString("hex")}@screenroom.test`;
}

export function client(headers: Record<string, string> = {}) {
  const pb = new PocketBase(pbUrl());
  pb.autoCancellation(false);
  if (Object.keys(headers).length) {
    pb.beforeSend = (url, options) => {
      options.headers = { ...(options.headers as Record<string, string>), ...headers };
      return { url, options };
    };
  }
  return pb;
}

export const anonymous = () => client();

/** A candidate presenting `key` (its interview link's key) in the X-Candidate-Key header, as the SPA does. */
export const asCandidateKey = (key: string) => client({ "X-Candidate-Key": key });

const keys = new Map<string, string>();
/** A candidate's key (the hidden `secret`, readable by superusers only), read once per candidate. */
export async function keyOf(candidateId: string): Promise<string | null> {
  const known = keys.get(candidateId);
  if (known) return known;
  const su = await superuser();
  const found = await su
    .collection("candidates")
    .getOne(candidateId)
    .catch(() => null);
  if (!found) return null;
  keys.set(candidateId, found.secret as string);
  return found.secret as string;
}

/**
 * The candidate with record id `candidateId`, presenting its key as the SPA does (the key is in its link). A value
 * that is no candidate's id is presented as it is, so a test can present anything.
 */
export function asCandidate(candidateId: string) {
  const pb = client();
  pb.beforeSend = async (url, options) => {
    const key = (await keyOf(candidateId)) ?? candidateId;
    options.headers = { ...(options.headers as Record<string, string>), "X-Candidate-Key": key };
    return { url, options };
  };
  return pb;
}

export async function superuser() {
  const pb = client();
  const { email, password } = inject("superuser");
  await pb.collection("_superusers").authWithPassword(email, password);
  return pb;
}

export const PASSWORD = "correct-horse-battery";

type SignUpFields = Partial<{ email: string; firstName: string; lastName: string; invite: string }>;

/**
 * A public sign-up, as the SPA sends it, and nothing more: the account is unverified (unless an invite verified it)
 * and PocketBase refuses its sign-in until the address is confirmed. For the suites about unverified accounts.
 */
export async function signUpUnverified(fields: SignUpFields = {}) {
  const email = fields.email ?? uniqueEmail();
  const created = await client()
    .collection("users")
    .create({
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      firstName: fields.firstName ?? "Ada",
      lastName: fields.lastName ?? "Lovelace",
      emailVisibility: true,
      ...(fields.invite ? { invite: fields.invite } : {}),
    });
  return { email, created };
}

// one superuser session per server (useOwnServer switches servers), not a superuser sign-in per sign-up
const superusers = new Map<string, Promise<PocketBase>>();

/** Marks an account verified, as following the verification e-mail's link would. */
export async function markVerified(userId: string) {
  const url = pbUrl();
  if (!superusers.has(url)) superusers.set(url, superuser());
  await (await superusers.get(url)!).collection("users").update(userId, { verified: true });
}

/** A signed-up account whose address is confirmed (as a superuser, standing in for the e-mail's link), signed in. */
export async function signUp(fields: SignUpFields = {}) {
  const { email, created } = await signUpUnverified(fields);
  if (!created.verified) await markVerified(created.id);
  const pb = client();
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return { pb, user: pb.authStore.record as RecordModel, created };
}

export async function createCompany(pb: PocketBase, name = "Acme Screening") {
  return pb.collection("companies").create({ name, website: "https://acme.example.com", logo: pngFile() });
}

export async function createQuestion(pb: PocketBase, company: string, kind: "video" | "text", extra: Record<string, unknown> = {}) {
  const question = await pb.collection("questions").create({
    company,
    title: `${kind} question`,
    description: "Tell us about yourself",
    timeout: 60,
    canPreview: true,
    ...extra,
  });
  const kindRecord =
    kind === "video"
      ? await pb.collection("video_questions").create({ question: question.id, takes: 2 })
      : await pb.collection("text_questions").create({ question: question.id });
  return { question, kindRecord };
}

export async function createJob(pb: PocketBase, company: string, questions: string[]) {
  return pb.collection("jobs").create({
    company,
    title: "Support engineer",
    description: "Help our customers",
    location: "Remote",
    questions,
  });
}

/**
 * The candidate ticks 'I agree' on the start screen: POST /api/screenroom/interviews/{key}/consent through the real
 * route (issue 17; answers and staged parts are refused before it). Idempotent: 200 {consentedAt}, the first time kept.
 */
export async function consent(candidateId: string): Promise<string> {
  const key = (await keyOf(candidateId)) ?? candidateId;
  const res = await asCandidateKey(key).send<{ consentedAt: string }>(
    `/api/screenroom/interviews/${encodeURIComponent(key)}/consent`,
    { method: "POST" },
  );
  return res.consentedAt;
}

/** A fresh candidate of a world's job (each candidate answers each question once), who agreed on the start screen: its id. */
export async function newCandidateOf(w: { manager: { pb: PocketBase }; job: { id: string } }, label: string): Promise<string> {
  const id = (await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail(label) })).id;
  await consent(id);
  return id;
}

/** A company with one video and one text question, a job and an invited candidate. */
export async function world(label = "acme") {
  const manager = await signUp({ email: uniqueEmail(`${label}-manager`) });
  const company = await createCompany(manager.pb, `${label} company`);
  const video = await createQuestion(manager.pb, company.id, "video");
  const text = await createQuestion(manager.pb, company.id, "text");
  const job = await createJob(manager.pb, company.id, [video.question.id, text.question.id]);
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail(`${label}-candidate`) });
  await consent(candidate.id);
  return { manager, company, video, text, job, candidate };
}

/** A video answer as the SPA stores it (POST /api/screenroom/answers, the candidate's key in the header). */
export async function answerVideo(candidateId: string, questionId: string, answerId?: string, file: File = webmFile()) {
  const id = answerId ?? randomId();
  const res = await postAnswer(asCandidate(candidateId), { id, candidate: candidateId, question: questionId, file });
  return { answer: res.answer, kind: res.record };
}

export async function answerText(candidateId: string, questionId: string, content = "I like solving problems.") {
  const res = await postAnswer(asCandidate(candidateId), { id: randomId(), candidate: candidateId, question: questionId, content });
  return { answer: res.answer, kind: res.record };
}

/** POST /api/screenroom/answers: the answer and its kind record in one request, multipart (a `file` or a `content`). */
export async function postAnswer(pb: PocketBase, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof File) form.append(name, value, value.name);
    else form.append(name, value);
  }
  return pb.send<{ answer: RecordModel; kind: string; record: RecordModel }>("/api/screenroom/answers", { method: "POST", body: form });
}

/**
 * PUT /api/screenroom/takes/{takeId}/parts/{offset}?question=: one part of a take staged while it is recorded;
 * `marks`: what the device says of the take (`ms` recorded so far, `last: "1"` after 'Stop Recording').
 */
export async function putPart(
  pb: PocketBase,
  takeId: string,
  offset: number | string,
  bytes: Uint8Array<ArrayBuffer> | Blob,
  question: string,
  marks: { ms?: string; last?: string } = {},
) {
  return pb.send<{ take: string; offset: number; size: number }>(
    `/api/screenroom/takes/${encodeURIComponent(takeId)}/parts/${encodeURIComponent(String(offset))}`,
    {
      method: "PUT",
      query: { question, ...marks },
      headers: { "Content-Type": "application/octet-stream" },
      body: bytes instanceof Blob ? bytes : new Blob([bytes]),
    },
  );
}

/** DELETE /api/screenroom/takes/{takeId}: discards a staged take. */
export async function deleteTake(pb: PocketBase, takeId: string) {
  return pb.send(`/api/screenroom/takes/${encodeURIComponent(takeId)}`, { method: "DELETE" });
}

export function randomId() {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 15; i++) id += alphabet[Math.floor(Math.random() * alphabet.length)];
  return id;
}

/** The HTTP status a call ends with (200 when it succeeds). */
export async function statusOf(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
    return 200;
  } catch (err) {
    if (err instanceof ClientResponseError) return err.status;
    throw err;
  }
}

/** The status and body a call ends with (200 and null when it succeeds): a refusal compared with another's. */
export async function refusalBody(call: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call();
    return { status: 200, body: null };
  } catch (err) {
    if (!(err instanceof ClientResponseError)) throw err;
    return { status: err.status, body: err.response };
  }
}

export async function errorOf(call: () => Promise<unknown>): Promise<ClientResponseError> {
  try {
    await call();
  } catch (err) {
    if (err instanceof ClientResponseError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

export interface Mail {
  id: string;
  subject: string;
  html: string;
  text?: string;
  to: { address: string }[];
}

/** Waits for an e-mail to `address` in MailDev, optionally matching its subject. */
export const waitForMail = (address: string, subject?: RegExp, timeoutMs = 30_000): Promise<Mail> =>
  mail.waitForMail(mailUrl(), address, subject, timeoutMs);

export const mailsTo = (address: string): Promise<Mail[]> => mail.mailsTo(mailUrl(), address);

export const linksIn = (message: Mail): string[] => mail.linksIn(message);
