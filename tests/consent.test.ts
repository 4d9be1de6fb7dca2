// Issue 17 point 2: consent before anything is recorded. POST /api/screenroom/interviews/{key}/consent stores when the
// candidate ticked 'I agree' (server/internal/interview); answers (a whole file, a text) and staged parts are refused with 403
// before it (platform.RequireConsent, server/internal/platform/records.go); nobody but a superuser writes `consentedAt`
// through the records API.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anonymous,
  asCandidate,
  asCandidateKey,
  consent,
  errorOf,
  fixture,
  keyOf,
  postAnswer,
  putPart,
  randomId,
  superuser,
  uniqueEmail,
  webmFile,
  world,
} from "./helpers";

const REFUSAL = "Please agree to the terms on the start page before answering.";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;

/** A candidate of world a who has not agreed yet. */
async function unconsented() {
  return (await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("no-consent") })).id;
}

const consentAt = (pb: ReturnType<typeof anonymous>, key: string) =>
  pb.send<{ consentedAt: string }>(`/api/screenroom/interviews/${encodeURIComponent(key)}/consent`, { method: "POST" });

beforeAll(async () => {
  a = await world("consent-a");
  b = await world("consent-b");
});

describe("the consent route", () => {
  it("stores when the candidate agreed, once: a second call keeps the first time", async () => {
    const candidate = await unconsented();
    const su = await superuser();
    expect((await su.collection("candidates").getOne(candidate)).consentedAt).toBe("");
    const first = await consent(candidate);
    expect(first).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await consent(candidate)).toBe(first);
    expect((await su.collection("candidates").getOne(candidate)).consentedAt).toBe(first);
    // the candidate and its managers see it
    expect((await a.manager.pb.collection("candidates").getOne(candidate)).consentedAt).toBe(first);
    const key = (await keyOf(candidate))!;
    const interview = await asCandidateKey(key).send<{ consentedAt: string }>(`/api/screenroom/interviews/${key}`, { method: "GET" });
    expect(interview.consentedAt).toBe(first);
  });

  it("answers 404 without the candidate's valid key, and stores nothing", async () => {
    const candidate = await unconsented();
    const key = (await keyOf(candidate))!;
    const otherKey = (await keyOf(b.candidate.id))!;
    const refusals: [string, () => Promise<unknown>][] = [
      ["no header", () => consentAt(anonymous(), key)],
      ["another candidate's header", () => consentAt(asCandidateKey(otherKey), key)],
      ["the record id", () => consentAt(asCandidateKey(key), candidate)],
      ["a made-up key", () => consentAt(asCandidateKey("x".repeat(43)), "x".repeat(43))],
      ["a manager", () => consentAt(a.manager.pb, key)],
    ];
    for (const [label, call] of refusals) {
      const error = await errorOf(call);
      expect(error.status, label).toBe(404);
    }
    expect((await (await superuser()).collection("candidates").getOne(candidate)).consentedAt).toBe("");
  });
});

describe("before consent", () => {
  it("refuses a whole video file with 403 and the message, and stores nothing", async () => {
    const candidate = await unconsented();
    const error = await errorOf(() =>
      postAnswer(asCandidate(candidate), { id: randomId(), candidate, question: a.video.question.id, file: webmFile() }),
    );
    expect(error.status).toBe(403);
    expect(error.response.message).toBe(REFUSAL);
    const su = await superuser();
    expect(await su.collection("answers").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate }) })).toHaveLength(0);
  });

  it("refuses a text answer with 403, then takes it once the candidate agreed", async () => {
    const candidate = await unconsented();
    const send = () => postAnswer(asCandidate(candidate), { id: randomId(), candidate, question: a.text.question.id, content: "Hello" });
    const error = await errorOf(send);
    expect(error.status).toBe(403);
    expect(error.response.message).toBe(REFUSAL);
    await consent(candidate);
    expect((await send()).kind).toBe("text_answers");
  });

  it("refuses a staged part with 403, and stages it once the candidate agreed", async () => {
    const candidate = await unconsented();
    const take = randomId();
    const bytes = new Uint8Array(fixture("answer.webm")).slice(0, 1024);
    const error = await errorOf(() => putPart(asCandidate(candidate), take, 0, bytes, a.video.question.id));
    expect(error.status).toBe(403);
    expect(error.response.message).toBe(REFUSAL);
    const su = await superuser();
    expect(await su.collection("staged_takes").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate }) })).toHaveLength(0);
    await consent(candidate);
    expect((await putPart(asCandidate(candidate), take, 0, bytes, a.video.question.id)).size).toBe(1024);
  });
});

describe("consentedAt through the records API", () => {
  it("is refused (400 on the field) to managers creating or updating a candidate", async () => {
    const created = await errorOf(() =>
      a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("forged"), consentedAt: "2026-01-01 00:00:00.000Z" }),
    );
    expect(created.status).toBe(400);
    expect(created.response.data).toHaveProperty("consentedAt");

    const candidate = await unconsented();
    const updated = await errorOf(() => a.manager.pb.collection("candidates").update(candidate, { consentedAt: "2026-01-01 00:00:00.000Z" }));
    expect(updated.status).toBe(400);
    expect(updated.response.data).toHaveProperty("consentedAt");
  });

  it("is refused to the candidate itself, and unchanged after any refusal", async () => {
    const candidate = await unconsented();
    const status = (await errorOf(() => asCandidate(candidate).collection("candidates").update(candidate, { consentedAt: "2026-01-01 00:00:00.000Z" }))).status;
    expect([400, 404]).toContain(status);
    expect((await (await superuser()).collection("candidates").getOne(candidate)).consentedAt).toBe("");
  });

  it("may be written by a superuser (tools, seed scripts)", async () => {
    const candidate = await unconsented();
    const su = await superuser();
    const record = await su.collection("candidates").update(candidate, { consentedAt: "2026-01-01 00:00:00.000Z" });
    expect(record.consentedAt).toBe("2026-01-01 00:00:00.000Z");
  });
});
