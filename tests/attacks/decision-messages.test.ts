// Decision messages as an attacker tries them (server/internal/messages, pb_migrations/1733201200_decision_messages.js):
// reading or writing another company's templates, sending (or previewing) a message to another company's candidate,
// a manager removed from the company or whose account is no longer confirmed still holding a token, a candidate's
// key, nobody; and reaching the new collections sideways: expand, filters through them, batch, realtime.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidate, keyOf, newCandidateOf, refusalBody, signUp, statusOf, uniqueEmail, world } from "../helpers";
import { acceptInvite, admin, countOf } from "../support";

type World = Awaited<ReturnType<typeof world>>;

let a: World;
let b: World;
/** A co-manager of A's company whom the owner removed, after they had sent a message. */
let removed: Awaited<ReturnType<typeof signUp>>;
/** A co-manager of A's company whose account is no longer confirmed, still holding the token it had. */
let unverified: Awaited<ReturnType<typeof signUp>>;
let template: RecordModel;
let sentByRemoved: RecordModel;

const templatesRoute = (company: string) => `/api/screenroom/companies/${encodeURIComponent(company)}/decision-templates`;
const messageRoute = (candidate: string, preview = false) =>
  `/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision-message${preview ? "/preview" : ""}`;
const send = (pb: PocketBase, candidate: string, kind = "advance") => pb.send<RecordModel>(messageRoute(candidate), { method: "POST", body: { kind } });
const previewOf = (pb: PocketBase, candidate: string, kind = "advance") => pb.send(messageRoute(candidate, true), { method: "POST", body: { kind } });

async function coManager(label: string) {
  const user = await signUp({ email: uniqueEmail(label) });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: user.user.email });
  expect((await acceptInvite(invite.id, user.pb.authStore.token)).status).toBe(200);
  return user;
}

/** A candidate of A's job, advanced by A's manager. */
async function advanced(label: string) {
  const candidate = await newCandidateOf(a, label);
  await a.manager.pb.send(`/api/screenroom/candidates/${candidate}/decision`, { method: "POST", body: { decision: "advance" } });
  return candidate;
}

/** What a refused send must leave: no record, no e-mail queued for the candidate. */
async function nothingSentTo(candidate: string) {
  expect(await countOf("decision_messages", "candidate = {:c}", { c: candidate })).toBe(0);
  const su = await admin();
  const queued = await su.collection("mail_queue").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate }) });
  // the interview e-mail only
  expect(queued.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Your interview for/)]);
}

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const unsubscribers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of unsubscribers) await stop().catch(() => undefined);
});

beforeAll(async () => {
  a = await world("attack-messages-a");
  b = await world("attack-messages-b");
  template = await a.manager.pb
    .collection("decision_templates")
    .create({ company: a.company.id, kind: "advance", language: "en", subject: "Secret plans for {job}", body: "Only A knows this." });

  removed = await coManager("messages-removed");
  sentByRemoved = await send(removed.pb, await advanced("sent-by-removed"));
  await a.manager.pb.collection("companies").update(a.company.id, { "managers-": removed.user.id });

  unverified = await coManager("messages-unverified");
  await (await admin()).collection("users").update(unverified.user.id, { verified: false });
});

describe("another company's templates", () => {
  it("are unseen and unchanged by another company's manager, through the records API, the routes and a batch", async () => {
    const pb = b.manager.pb;
    expect(await pb.collection("decision_templates").getFullList({ filter: pb.filter("company = {:c}", { c: a.company.id }) })).toEqual([]);
    expect(await statusOf(() => pb.collection("decision_templates").getOne(template.id))).toBe(404);
    expect(await statusOf(() => pb.collection("decision_templates").update(template.id, { body: "Hijacked" }))).toBe(404);
    expect(await statusOf(() => pb.collection("decision_templates").delete(template.id))).toBe(404);
    expect(await statusOf(() => pb.collection("decision_templates").create({ company: a.company.id, kind: "reject", language: "en", subject: "S", body: "B" }))).toBe(400);
    const batch = pb.createBatch();
    batch.collection("decision_templates").create({ company: a.company.id, kind: "reject", language: "de", subject: "S", body: "B" });
    batch.collection("decision_templates").update(template.id, { body: "Hijacked" });
    expect(await statusOf(() => batch.send())).toBe(400);
    // the routes answer as for a company that does not exist
    const unknown = await refusalBody(() => pb.send(templatesRoute("nosuchcompany12"), {}));
    expect(await refusalBody(() => pb.send(templatesRoute(a.company.id), {}))).toEqual(unknown);
    expect(unknown.status).toBe(404);
    expect(
      await statusOf(() => pb.send(`${templatesRoute(a.company.id)}/preview`, { method: "POST", body: { kind: "advance", language: "en", subject: "S", body: "B" } })),
    ).toBe(404);

    const su = await admin();
    expect(await su.collection("decision_templates").getOne(template.id)).toMatchObject({ body: "Only A knows this.", company: a.company.id });
    expect(await countOf("decision_templates", "company = {:c}", { c: a.company.id })).toBe(1);
  });

  it("cannot be moved into another company by the manager of both", async () => {
    const own = await b.manager.pb.collection("decision_templates").create({ company: b.company.id, kind: "reject", language: "en", subject: "S", body: "B" });
    // B's manager manages B only: moving B's template to A is refused, as is A's manager moving A's to B
    expect(await statusOf(() => b.manager.pb.collection("decision_templates").update(own.id, { company: a.company.id }))).toBe(404);
    expect(await statusOf(() => a.manager.pb.collection("decision_templates").update(template.id, { company: b.company.id }))).toBe(404);
    expect((await (await admin()).collection("decision_templates").getOne(own.id)).company).toBe(b.company.id);
  });

  it("are not read through a filter on a relation of one's own records (true and false guesses answer alike)", async () => {
    const pb = b.manager.pb;
    const guess = (g: string) =>
      refusalBody(() =>
        pb.collection("companies").getList(1, 10, { filter: pb.filter("id = {:own} && decision_templates_via_company.body ~ {:g}", { own: b.company.id, g }) }),
      );
    const [truth, lie] = [await guess("Only A knows"), await guess("Nothing like it")];
    expect(truth).toEqual(lie);
  });
});

describe("another company's candidate", () => {
  it("gets no message, nor a preview, from another company's manager: the same 404 as an unknown candidate", async () => {
    const candidate = await advanced("other-company");
    const unknown = await refusalBody(() => send(b.manager.pb, "nosuchcandidat"));
    expect(unknown.status).toBe(404);
    expect(await refusalBody(() => send(b.manager.pb, candidate))).toEqual(unknown);
    expect(await refusalBody(() => previewOf(b.manager.pb, candidate))).toEqual(unknown);
    // asking for the wrong kind says nothing more
    expect(await refusalBody(() => send(b.manager.pb, candidate, "reject"))).toEqual(unknown);
    await nothingSentTo(candidate);
  });

  it("is not read through a decision message of another company, listed, viewed, expanded or filtered", async () => {
    const sent = await send(a.manager.pb, await advanced("read-other"));
    const pb = b.manager.pb;
    expect(await pb.collection("decision_messages").getFullList({ filter: pb.filter("candidate = {:c}", { c: sent.candidate }) })).toEqual([]);
    expect(await statusOf(() => pb.collection("decision_messages").getOne(sent.id))).toBe(404);
    // B's own user record, expanding or filtering through messages A's manager sent: nothing of A's
    const self = await pb.collection("users").getOne(b.manager.user.id, { expand: "decision_messages_via_sentBy" });
    expect(self.expand?.decision_messages_via_sentBy).toBeUndefined();
    const guess = (g: string) =>
      refusalBody(() => pb.collection("decision_messages").getList(1, 10, { filter: pb.filter("candidate.job.company.name >= {:g}", { g }) }));
    expect(await guess("attack")).toEqual(await guess("zzz"));
  });
});

describe("a manager removed from the company", () => {
  it("sends nothing more, reads no template or message, and does not read the message they sent through their own record", async () => {
    const candidate = await advanced("after-removal");
    expect(await statusOf(() => send(removed.pb, candidate))).toBe(404);
    expect(await statusOf(() => previewOf(removed.pb, candidate))).toBe(404);
    await nothingSentTo(candidate);
    expect(await statusOf(() => removed.pb.send(templatesRoute(a.company.id), {}))).toBe(404);
    expect(await removed.pb.collection("decision_templates").getFullList()).toEqual([]);
    expect(await statusOf(() => removed.pb.collection("decision_templates").update(template.id, { body: "Changed on the way out" }))).toBe(404);
    expect(await removed.pb.collection("decision_messages").getFullList()).toEqual([]);
    expect(await statusOf(() => removed.pb.collection("decision_messages").getOne(sentByRemoved.id))).toBe(404);
    const self = await removed.pb.collection("users").getOne(removed.user.id, { expand: "decision_messages_via_sentBy" });
    expect(self.expand?.decision_messages_via_sentBy).toBeUndefined();
    const guess = (g: string) =>
      refusalBody(() =>
        removed.pb.collection("users").getList(1, 10, { filter: removed.pb.filter("id = {:me} && decision_messages_via_sentBy.subject ~ {:g}", { me: removed.user.id, g }) }),
      );
    expect(await guess("Secret plans")).toEqual(await guess("Nothing like it"));
    // what they sent while a manager stays, for the team
    expect((await a.manager.pb.collection("decision_messages").getOne(sentByRemoved.id)).sentBy).toBe(removed.user.id);
  });
});

describe("a manager whose account is no longer confirmed", () => {
  it("sends nothing and reads or writes no template, though still a manager holding a valid token", async () => {
    const candidate = await advanced("unverified-sender");
    expect(await statusOf(() => send(unverified.pb, candidate))).toBe(404);
    expect(await statusOf(() => previewOf(unverified.pb, candidate))).toBe(404);
    await nothingSentTo(candidate);
    expect(await statusOf(() => unverified.pb.send(templatesRoute(a.company.id), {}))).toBe(404);
    expect(await unverified.pb.collection("decision_templates").getFullList()).toEqual([]);
    expect(await statusOf(() => unverified.pb.collection("decision_templates").create({ company: a.company.id, kind: "reject", language: "fr", subject: "S", body: "B" }))).toBe(400);
    expect(await statusOf(() => unverified.pb.collection("decision_templates").delete(template.id))).toBe(404);
    expect(await unverified.pb.collection("decision_messages").getFullList()).toEqual([]);
  });
});

describe("a candidate's key and nobody", () => {
  it("send nothing, preview nothing and read no message, not even their own, by view, list or expand", async () => {
    const candidate = await advanced("key-holder");
    const sent = await send(a.manager.pb, await advanced("key-holder-sent"));
    for (const pb of [asCandidate(candidate), anonymous()]) {
      expect(await statusOf(() => send(pb, candidate))).toBe(404);
      expect(await statusOf(() => previewOf(pb, candidate))).toBe(404);
      expect(await statusOf(() => pb.send(templatesRoute(a.company.id), {}))).toBe(404);
      expect(await pb.collection("decision_templates").getFullList()).toEqual([]);
    }
    await nothingSentTo(candidate);
    const key = asCandidate(sent.candidate);
    expect(await key.collection("decision_messages").getFullList({ filter: key.filter("candidate = {:c}", { c: sent.candidate }) })).toEqual([]);
    expect(await statusOf(() => key.collection("decision_messages").getOne(sent.id))).toBe(404);
    const own = await key.collection("candidates").getOne(sent.candidate, { expand: "decision_messages_via_candidate" });
    expect(own.id).toBe(sent.candidate);
    expect(own.expand?.decision_messages_via_candidate).toBeUndefined();
  });

  it("write no message through the records API or a batch, nor does a manager", async () => {
    const candidate = await advanced("forged-message");
    const body = { candidate, kind: "advance", language: "en", subject: "Forged", body: "Forged", sentAt: new Date().toISOString(), sentBy: a.manager.user.id };
    for (const pb of [a.manager.pb, asCandidate(candidate), anonymous()]) {
      expect([400, 403]).toContain(await statusOf(() => pb.collection("decision_messages").create(body)));
      const batch = pb.createBatch();
      batch.collection("decision_messages").create(body);
      expect([400, 403]).toContain(await statusOf(() => batch.send()));
    }
    await nothingSentTo(candidate);
  });
});

describe("realtime", () => {
  /** Subscribes `pb` to every record of `collection`, collecting the events' records. */
  async function collect(pb: PocketBase, collection: string, options: Record<string, unknown> = {}) {
    const seen: RecordModel[] = [];
    unsubscribers.push(await pb.collection(collection).subscribe("*", (event) => seen.push(event.record), options));
    return seen;
  }

  it("tells only the company's managers of its messages and templates: not another company's, a removed or unconfirmed one's, nor a key's", async () => {
    const candidate = await advanced("realtime");
    const key = (await keyOf(candidate))!;
    const manager = { messages: await collect(a.manager.pb, "decision_messages"), templates: await collect(a.manager.pb, "decision_templates") };
    const other = { messages: await collect(b.manager.pb, "decision_messages"), templates: await collect(b.manager.pb, "decision_templates") };
    const gone = { messages: await collect(removed.pb, "decision_messages"), templates: await collect(removed.pb, "decision_templates"), self: [] as RecordModel[] };
    const unconfirmed = { messages: await collect(unverified.pb, "decision_messages"), templates: await collect(unverified.pb, "decision_templates"), self: [] as RecordModel[] };
    unsubscribers.push(await removed.pb.collection("users").subscribe(removed.user.id, (event) => gone.self.push(event.record)));
    unsubscribers.push(await unverified.pb.collection("users").subscribe(unverified.user.id, (event) => unconfirmed.self.push(event.record)));
    const keyHolder = {
      messages: await collect(asCandidate(candidate), "decision_messages", { headers: { "X-Candidate-Key": key }, expand: "candidate" }),
      own: [] as RecordModel[],
    };
    unsubscribers.push(await asCandidate(candidate).collection("candidates").subscribe(candidate, (event) => keyHolder.own.push(event.record), { headers: { "X-Candidate-Key": key } }));

    const sent = await send(a.manager.pb, candidate);
    const written = await a.manager.pb.collection("decision_templates").create({ company: a.company.id, kind: "reject", language: "nl", subject: "Onderwerp", body: "Tekst" });
    await expect.poll(() => manager.messages.map((r) => r.id), { timeout: 20_000 }).toContain(sent.id);
    await expect.poll(() => manager.templates.map((r) => r.id), { timeout: 20_000 }).toContain(written.id);

    // each subscriber's own later event ends its observation: one connection delivers in order, so A's events would
    // have come first
    const marker = await b.manager.pb.collection("decision_templates").create({ company: b.company.id, kind: "advance", language: "nl", subject: "B's own", body: "B" });
    await expect.poll(() => other.templates.map((r) => r.id), { timeout: 20_000 }).toContain(marker.id);
    expect(other.templates.map((r) => r.id)).toEqual([marker.id]);
    expect(other.messages).toEqual([]);

    await a.manager.pb.collection("candidates").update(candidate, { firstName: "Marker" });
    await expect.poll(() => keyHolder.own.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(keyHolder.messages).toEqual([]);

    // the removed and the unconfirmed managers end on an event of their own profile, written after A's
    const su = await admin();
    for (const user of [removed.user.id, unverified.user.id]) await su.collection("users").update(user, { lastName: `Marker ${user}` });
    await expect.poll(() => gone.self.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => unconfirmed.self.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect([...gone.messages, ...gone.templates, ...unconfirmed.messages, ...unconfirmed.templates]).toEqual([]);
  });
});
