// Helpers for end-to-end journeys: the real PocketBase behind the app (as superuser or a user), the
// MailDev inbox, and signing a browser in without going through the sign-in screen.
import type { Page } from "@playwright/test";
import PocketBase, { type RecordModel } from "pocketbase";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import * as mail from "../scripts/lib/maildev.mjs";
import { randomBytes } from "node:crypto";

export const PASSWORD = "correct-horse-battery";
const fixtures = join(import.meta.dirname, "..", "tests", "fixtures");
export const fixturePath = (name: string) => join(fixtures, name);
export const pngFile = () => new File([readFileSync(fixturePath("logo.png"))], "logo.png", { type: "image/png" });

let counter = 0;
export function uniqueEmail(prefix = "user") {
  counter += 1;
  // the counter is this file's alone (each test file has its modules to itself), so two files asking in the same
  // millisecond would get the same address without the random part, and the second sign-up would be refused
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomBytes(4).toString("hex")}@screenroom.test`;
}

export function client() {
  const pb = new PocketBase(E2E.appUrl);
  pb.autoCancellation(false);
  return pb;
}

export async function superuser() {
  const pb = client();
  await pb.collection("_superusers").authWithPassword(E2E.superuser.email, E2E.superuser.password);
  return pb;
}

/**
 * A candidate's key: the hidden `secret` (readable by superusers only) that is its interview link's last part
 * (`/candidates/{key}`) and its X-Candidate-Key header. Not the record id, which stays the review screen's.
 */
export async function keyOf(candidateId: string): Promise<string> {
  const su = await superuser();
  const candidate = await su.collection("candidates").getOne(candidateId, { fields: "secret" });
  return candidate.secret as string;
}

/** A verified user made through the API, signed in on the returned client. */
export async function createUser(fields: Partial<{ email: string; firstName: string; lastName: string }> = {}) {
  const su = await superuser();
  const email = fields.email ?? uniqueEmail();
  await su.collection("users").create({
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    firstName: fields.firstName ?? "Ada",
    lastName: fields.lastName ?? "Lovelace",
    emailVisibility: true,
    verified: true,
  });
  const pb = client();
  await pb.collection("users").authWithPassword(email, PASSWORD);
  return { pb, email, password: PASSWORD, user: pb.authStore.record as RecordModel };
}

/** Signs the browser in as `pb`'s user by storing the session where the app keeps it (pocketbase_auth). */
export async function signInBrowser(page: Page, pb: PocketBase) {
  const session = JSON.stringify({ token: pb.authStore.token, record: pb.authStore.record });
  await page.addInitScript((value) => window.localStorage.setItem("pocketbase_auth", value), session);
}

export async function createCompany(pb: PocketBase, name = "Acme Screening") {
  return pb.collection("companies").create({ name, website: "https://acme.example.com", logo: pngFile() });
}

export async function createQuestion(
  pb: PocketBase,
  company: string,
  kind: "video" | "text",
  fields: Partial<{ title: string; description: string; timeout: number; canPreview: boolean; takes: number; preparation: number }> = {},
) {
  const question = await pb.collection("questions").create({
    company,
    title: fields.title ?? `A ${kind} question`,
    description: fields.description ?? "Tell us about yourself",
    timeout: fields.timeout ?? 60,
    canPreview: fields.canPreview ?? true,
  });
  // a video question without `preparation` gets the server's 30 s (issue 17)
  if (kind === "video") {
    await pb.collection("video_questions").create({ question: question.id, takes: fields.takes ?? 2, ...(fields.preparation === undefined ? {} : { preparation: fields.preparation }) });
  }
  else await pb.collection("text_questions").create({ question: question.id });
  return question;
}

export interface Mail {
  id: string;
  subject: string;
  html: string;
  to: { address: string }[];
}

export const waitForMail = (address: string, subject?: RegExp, timeoutMs = 30_000): Promise<Mail> =>
  mail.waitForMail(E2E.mailUrl, address, subject, timeoutMs);

/** The links of an e-mail; `pathOf` makes one relative so the test's baseURL applies. */
export const linksIn = (message: Mail): string[] => mail.linksIn(message);

export function pathOf(link: string) {
  const url = new URL(link);
  return url.pathname + url.search;
}

/**
 * The candidate whose key is `key` ticks 'I agree' on the start screen, through the real route (issue 17):
 * POST /api/screenroom/interviews/{key}/consent. Journeys that open a question directly need it; the server refuses
 * answers before it.
 */
export async function consentAs(key: string, origin: string = E2E.appUrl): Promise<string> {
  const res = await fetch(`${origin}/api/screenroom/interviews/${encodeURIComponent(key)}/consent`, {
    method: "POST",
    headers: { "X-Candidate-Key": key },
  });
  if (!res.ok) throw new Error(`POST /api/screenroom/interviews/{key}/consent: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { consentedAt: string }).consentedAt;
}
