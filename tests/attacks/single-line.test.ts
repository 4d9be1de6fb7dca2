// Security round three, "also tighten": single-line fields took CR/LF. A name, title, address or link is copied into
// e-mail subjects and headers, CSV exports and one-line screens, where a line break splits or forges what follows
// ("Ada\r\nBcc: …"). Now every single-line field refuses "\r" and "\n" with 400 and data[field] = {code
// validation_single_line, message "This field must be on one line."} on every way a record is written: the records
// API (create, update; a superuser too), the batch API, and the CSV import's rows
// (server/internal/platform/single_line.go).
import { beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import {
  PASSWORD,
  client,
  errorOf,
  pngFile,
  randomId,
  superuser,
  uniqueEmail,
  world,
} from "../helpers";
import { batchFailure } from "../support";

const MESSAGE = "This field must be on one line.";
const CODE = "validation_single_line";
const BREAKS = [
  ["LF", "\n"],
  ["CR", "\r"],
] as const;

type World = Awaited<ReturnType<typeof world>>;

/** Expects a 400 whose data[field] is the single-line refusal; returns the whole answer for more checks. */
async function expectOneLineRefusal(call: () => Promise<unknown>, field: string) {
  const err = await errorOf(call);
  const said = `${err.status} ${JSON.stringify(err.response)}`;
  expect(err.status, said).toBe(400);
  expect(err.response?.data?.[field], said).toEqual({ code: CODE, message: MESSAGE });
  return err;
}

/** A value with the line break in the middle, as an attacker writes a header after it. */
const text = (br: string) => `Line one${br}Line two`;
const email = (br: string) => `${uniqueEmail("one-line")}${br}Bcc: victim@screenroom.test`;
const link = (br: string) => `https://acme.example.com/refused${br}next`;
/** What a value holds before its line break: found in whatever a server that let it through stored. */
const firstLine = (value: string) => value.split(/[\r\n]/)[0]!;

interface FieldCase {
  collection: string;
  field: string;
  value: (br: string) => string;
  /** creates a record with the field set to `value` */
  create: (w: World, field: string, value: string) => Promise<unknown>;
  /** the record an update writes to, created validly, and who updates it */
  target: (w: World) => Promise<{ pb: PocketBase; record: RecordModel }>;
}

const asManager = (w: World, record: RecordModel) => ({ pb: w.manager.pb, record });

const newQuestion = (w: World, extra: Record<string, unknown> = {}) =>
  w.manager.pb.collection("questions").create({ company: w.company.id, title: "Valid title", description: "Tell us", timeout: 60, canPreview: true, ...extra });
const newJob = (w: World, extra: Record<string, unknown> = {}) =>
  w.manager.pb.collection("jobs").create({ company: w.company.id, title: "Valid title", description: "Help us", location: "Remote", questions: [w.text.question.id], ...extra });
const newCandidate = (w: World, extra: Record<string, unknown> = {}) =>
  w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("one-line-candidate"), ...extra });
const newCompany = (pb: PocketBase, extra: Record<string, unknown> = {}) =>
  pb.collection("companies").create({ name: "Valid Inc", website: "https://acme.example.com", logo: pngFile(), ...extra });
const newEndpoint = (w: World, extra: Record<string, unknown> = {}) =>
  w.manager.pb.collection("webhook_endpoints").create({ company: w.company.id, url: "https://hooks.invalid/one-line", events: ["candidate.decided"], ...extra });
const signUpWith = (extra: Record<string, unknown>) =>
  client()
    .collection("users")
    .create({ email: uniqueEmail("one-line-user"), password: PASSWORD, passwordConfirm: PASSWORD, firstName: "Ada", lastName: "Lovelace", emailVisibility: true, ...extra });

const CASES: FieldCase[] = [
  // users: a public sign-up creates, the user updates their own names; an e-mail is changed by a superuser only
  ...(["firstName", "lastName"] as const).map((field) => ({
    collection: "users",
    field,
    value: text,
    create: (_w: World, f: string, value: string) => signUpWith({ [f]: value }),
    target: async (w: World) => ({ pb: w.manager.pb, record: w.manager.user }),
  })),
  {
    collection: "users",
    field: "email",
    value: email,
    create: (_w, f, value) => signUpWith({ [f]: value }),
    target: async (w) => ({ pb: await superuser(), record: w.manager.user }),
  },
  ...(["name", "website", "privacyUrl"] as const).map((field) => ({
    collection: "companies",
    field,
    value: field === "name" ? text : link,
    create: (w: World, f: string, value: string) => newCompany(w.manager.pb, { [f]: value }),
    target: async (w: World) => asManager(w, w.company),
  })),
  ...(["title", "location"] as const).map((field) => ({
    collection: "jobs",
    field,
    value: text,
    create: (w: World, f: string, value: string) => newJob(w, { [f]: value }),
    target: async (w: World) => asManager(w, await newJob(w)),
  })),
  {
    collection: "questions",
    field: "title",
    value: text,
    create: (w, f, value) => newQuestion(w, { [f]: value }),
    target: async (w) => asManager(w, await newQuestion(w)),
  },
  ...(["email", "firstName", "lastName"] as const).map((field) => ({
    collection: "candidates",
    field,
    value: field === "email" ? email : text,
    create: (w: World, f: string, value: string) => newCandidate(w, { [f]: value }),
    target: async (w: World) => asManager(w, await newCandidate(w)),
  })),
  {
    // nobody but a superuser updates an invite (decisions.md): the superuser's update is refused too
    collection: "manager_invites",
    field: "email",
    value: email,
    create: (w, f, value) => w.manager.pb.collection("manager_invites").create({ company: w.company.id, [f]: value }),
    target: async (w) => ({
      pb: await superuser(),
      record: await w.manager.pb.collection("manager_invites").create({ company: w.company.id, email: uniqueEmail("one-line-invitee") }),
    }),
  },
  {
    collection: "webhook_endpoints",
    field: "url",
    value: (br) => `https://hooks.invalid/refused${br}in`,
    create: (w, f, value) => newEndpoint(w, { [f]: value }),
    target: async (w) => asManager(w, await newEndpoint(w)),
  },
];

let w: World;
let su: PocketBase;
beforeAll(async () => {
  w = await world("one-line");
  su = await superuser();
});

describe.each(CASES.map((c) => [`${c.collection}.${c.field}`, c] as const))("%s", (_name, { collection, field, value, create, target }) => {
  it.each(BREAKS)("a create with %s is refused on the field, and nothing is stored", async (_name, br) => {
    const written = value(br);
    await expectOneLineRefusal(() => create(w, field, written), field);
    const stored = await su.collection(collection).getFullList({ filter: su.filter(`${field} ~ {:v}`, { v: firstLine(written) }) });
    expect(stored).toEqual([]);
  });

  it.each(BREAKS)("an update with %s is refused on the field, and the stored value stays", async (_name, br) => {
    const { pb, record } = await target(w);
    const before = (await su.collection(collection).getOne(record.id))[field] as string;
    await expectOneLineRefusal(() => pb.collection(collection).update(record.id, { [field]: value(br) }), field);
    expect((await su.collection(collection).getOne(record.id))[field]).toBe(before);
  });
});

describe("the same rule in a batch", () => {
  it.each(BREAKS)("a batch write with %s fails at that request, on the field, and none of the batch is stored", async (_name, br) => {
    const job = await newJob(w);
    const questionId = randomId();
    const batch = w.manager.pb.createBatch();
    batch.collection("questions").create({ id: questionId, company: w.company.id, title: "Fine title", description: "Tell us", timeout: 60 });
    batch.collection("jobs").update(job.id, { title: text(br) });
    const err = await errorOf(() => batch.send());
    expect(err.status).toBe(400);
    const failure = batchFailure(err);
    expect(failure.index).toBe(1);
    expect(failure.response.data.title).toEqual({ code: CODE, message: MESSAGE });
    expect(await su.collection("questions").getFullList({ filter: su.filter("id = {:id}", { id: questionId }) })).toEqual([]);
    expect((await su.collection("jobs").getOne(job.id)).title).toBe("Valid title");
  });

  it("a superuser's batch create is refused as well", async () => {
    const batch = su.createBatch();
    batch.collection("candidates").create({ job: w.job.id, email: uniqueEmail("one-line-su"), lastName: text("\r\n") });
    const err = await errorOf(() => batch.send());
    expect(err.status).toBe(400);
    expect(batchFailure(err).response.data.lastName).toEqual({ code: CODE, message: MESSAGE });
  });
});

describe("the CSV import", () => {
  const bulk = (rows: Record<string, unknown>[]) =>
    w.manager.pb.send<{ results: { status: string; reason?: string; message?: string; candidate?: string }[] }>(
      `/api/screenroom/jobs/${w.job.id}/invites/bulk`,
      { method: "POST", body: { importId: `one-line-${randomId()}`, rows } },
    );

  it("reports a row with a line break in a name as a bad row with the message, creates none of it, and goes on", async () => {
    const lf = uniqueEmail("one-line-csv-lf");
    const cr = uniqueEmail("one-line-csv-cr");
    const fine = uniqueEmail("one-line-csv-fine");
    const { results } = await bulk([
      { email: lf, firstName: "Ada\nBcc: victim@screenroom.test" },
      { email: cr, lastName: "Love\rlace" },
      { email: fine, firstName: "Grace", lastName: "Hopper" },
    ]);
    expect(results.slice(0, 2)).toEqual([
      { status: "skipped", reason: "multi_line", message: MESSAGE },
      { status: "skipped", reason: "multi_line", message: MESSAGE },
    ]);
    expect(results[2]!.status).toBe("created");
    const stored = await su.collection("candidates").getFullList({ filter: su.filter("email = {:a} || email = {:b}", { a: lf, b: cr }) });
    expect(stored).toEqual([]);
  });
});

describe("multi-line fields stay free", () => {
  it("a job's description and welcome message, a question's description and a comment keep their line breaks", async () => {
    const job = await newJob(w, { description: "First line\nSecond line\r\nThird", welcomeMessage: "Hello\n\nWelcome" });
    expect(job.description).toBe("First line\nSecond line\r\nThird");
    expect(job.welcomeMessage).toBe("Hello\n\nWelcome");
    const question = await newQuestion(w, { description: "Tell us\nabout you" });
    expect(question.description).toBe("Tell us\nabout you");
    const comment = await w.manager.pb.collection("comments").create({ candidate: w.candidate.id, author: w.manager.user.id, text: "Strong\nanswers" });
    expect(comment.text).toBe("Strong\nanswers");
  });
});
