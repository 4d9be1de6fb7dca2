// The access model of decisions.md, table-driven: every collection × operation × actor, asserted
// against a real PocketBase. A row's `allowed` lists who may do it; everyone else must be refused.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  anonymous,
  answerText,
  answerVideo,
  asCandidate,
  createCompany,
  createQuestion,
  deleteTake,
  fixture,
  consent,
  keyOf,
  pbUrl,
  postAnswer,
  putPart,
  randomId,
  signUp,
  statusOf,
  superuser,
  uniqueEmail,
  webmFile,
  world,
} from "./helpers";
import { bulkAction, bulkExport } from "./bulk-support";
import { createLink, openShared, revokeLink, type CreatedLink } from "./share-link-support";
import { coManagerOf } from "./support";

// "unverified": an account invited to A's company whose e-mail is not (any longer) confirmed, still holding a valid
// token: it may act on nothing but its own profile (decisions.md, amendments after the security review)
type Actor = "anonymous" | "candidate" | "manager" | "otherManager" | "noCompany" | "invitee" | "unverified";
type Op = "list" | "view" | "create" | "update" | "delete";
const ACTORS: Actor[] = ["anonymous", "candidate", "manager", "otherManager", "noCompany", "invitee", "unverified"];
const SIGNED_IN: Actor[] = ["manager", "otherManager", "noCompany", "invitee"];

interface Ctx {
  a: Awaited<ReturnType<typeof world>>;
  b: Awaited<ReturnType<typeof world>>;
  noCompany: Awaited<ReturnType<typeof signUp>>;
  invitee: Awaited<ReturnType<typeof signUp>>;
  unverified: Awaited<ReturnType<typeof signUp>>;
  invite: RecordModel;
  videoAnswer: { answer: RecordModel; kind: RecordModel };
  textAnswer: { answer: RecordModel; kind: RecordModel };
  stagedTake: StagedTake;
  progress: { id: string; candidate: string };
  rating: RecordModel;
  comment: RecordModel;
  su: PocketBase;
}
let ctx: Ctx;

/** The signed-in actor's own user id (what an honest client sends as `manager` or `author`), else A's manager's. */
function ownIdOr(actor: Actor, fallback: string) {
  switch (actor) {
    case "manager":
      return ctx.a.manager.user.id;
    case "otherManager":
      return ctx.b.manager.user.id;
    case "noCompany":
      return ctx.noCompany.user.id;
    case "invitee":
      return ctx.invitee.user.id;
    case "unverified":
      return ctx.unverified.user.id;
    default:
      return fallback;
  }
}

/** A fresh candidate of A's job with a text answer: what a rating or a comment is about. */
async function answeredCandidate() {
  const candidate = await freshCandidate();
  const { answer } = await answerText(candidate.id, ctx.a.text.question.id);
  return { candidate: candidate.id, answer: answer.id };
}

/** What a case acts on: a record id, and the candidate id the "candidate" actor presents. */
interface Target {
  id: string;
  candidateId?: string;
}

function clientFor(actor: Actor, candidateId: string): PocketBase {
  switch (actor) {
    case "anonymous":
      return anonymous();
    case "candidate":
      return asCandidate(candidateId);
    case "manager":
      return ctx.a.manager.pb;
    case "otherManager":
      return ctx.b.manager.pb;
    case "noCompany":
      return ctx.noCompany.pb;
    case "invitee":
      return ctx.invitee.pb;
    case "unverified":
      return ctx.unverified.pb;
  }
}

/** A candidate of A's job who has not answered yet, with A's job's questions. */
async function freshCandidateWithoutConsent() {
  return ctx.a.manager.pb.collection("candidates").create({ job: ctx.a.job.id, email: uniqueEmail("fresh-candidate") });
}

/** A candidate who agreed on the start screen (issue 17), so what it may record is decided by the rules alone. */
async function freshCandidate() {
  const candidate = await ctx.a.manager.pb.collection("candidates").create({ job: ctx.a.job.id, email: uniqueEmail("fresh-candidate") });
  await consent(candidate.id);
  return candidate;
}

interface StagedTake {
  /** the staged_takes record's id */
  id: string;
  take: string;
  candidate: string;
}

/** A take staged by a fresh candidate of A's job (its first part), with its row in the hidden staged_takes. */
async function freshStagedTake(su: PocketBase): Promise<StagedTake> {
  const candidate = (await freshCandidate()).id;
  const take = randomId();
  await putPart(asCandidate(candidate), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), ctx.a.video.question.id);
  const row = await su.collection("staged_takes").getFirstListItem(su.filter("take = {:take}", { take }));
  return { id: row.id, take, candidate };
}

/** The question_progress row a staged take's first part made. */
async function progressOf(su: PocketBase, staged: StagedTake) {
  const row = await su
    .collection("question_progress")
    .getFirstListItem(su.filter("candidate = {:c} && question = {:q}", { c: staged.candidate, q: ctx.a.video.question.id }));
  return { id: row.id, candidate: staged.candidate };
}

interface Row {
  collection: string;
  allowed: Record<Op, Actor[]>;
  /** no API rules at all (superusers only): PocketBase refuses even the list with 403 instead of answering no items */
  hidden?: true;
  /** the existing record read by list and view */
  existing: () => Target;
  /** a record body for create, made fresh per case */
  create: (actor: Actor) => Promise<{ body: Record<string, unknown>; candidateId?: string }>;
  update: () => Record<string, unknown>;
  /** a record made fresh per update/delete case */
  fresh: (actor: Actor) => Promise<Target>;
}

const rows: Row[] = [
  {
    collection: "users",
    allowed: {
      list: ["manager"], // self (A reads A)
      view: ["manager"],
      create: ACTORS, // public sign-up
      update: ["manager"], // self
      delete: [], // the fresh user is nobody's self; self-deletion has its own test below
    },
    existing: () => ({ id: ctx.a.manager.user.id }),
    create: async () => {
      const email = uniqueEmail("signup");
      return { body: { email, password: "password-123", passwordConfirm: "password-123", firstName: "Grace", lastName: "Hopper" } };
    },
    update: () => ({ firstName: "Changed" }),
    fresh: async (actor) => (actor === "manager" ? { id: ctx.a.manager.user.id } : { id: (await signUp()).user.id }),
  },
  {
    collection: "companies",
    allowed: {
      // lists are for managers; the invitee views. The candidate reads its company's name through the interview route
      // (GET /api/screenroom/interviews/{key}), not here (issue 20: pb_migrations/1733200200_manager_only_views.js)
      list: ["manager"],
      view: ["manager", "invitee"],
      create: SIGNED_IN,
      update: ["manager"],
      delete: ["manager"],
    },
    existing: () => ({ id: ctx.a.company.id, candidateId: ctx.a.candidate.id }),
    create: async () => ({ body: { name: "New company", website: "https://new.example.com", logo: pngBlob() } }),
    update: () => ({ name: "Renamed company" }),
    fresh: async () => {
      const company = await createCompany(ctx.a.manager.pb, "Disposable company");
      // the invitee may view a company only while invited to it: invite them here too
      await ctx.a.manager.pb.collection("manager_invites").create({ company: company.id, email: ctx.invitee.user.email });
      return { id: company.id };
    },
  },
  {
    collection: "manager_invites",
    allowed: {
      list: ["manager", "invitee"],
      view: ["manager", "invitee"],
      create: ["manager"],
      update: [],
      delete: ["manager", "invitee"],
    },
    existing: () => ({ id: ctx.invite.id }),
    create: async () => ({ body: { company: ctx.a.company.id, email: uniqueEmail("new-invitee") } }),
    update: () => ({ email: uniqueEmail("changed") }),
    fresh: async () => {
      const company = await createCompany(ctx.a.manager.pb, "Invite company");
      const invite = await ctx.a.manager.pb
        .collection("manager_invites")
        .create({ company: company.id, email: ctx.invitee.user.email });
      return { id: invite.id };
    },
  },
  {
    collection: "questions",
    allowed: {
      // the candidate reads the questions of its job through the interview route only (issue 20)
      list: ["manager"],
      view: ["manager"],
      create: ["manager"],
      update: ["manager"],
      delete: ["manager"],
    },
    existing: () => ({ id: ctx.a.video.question.id, candidateId: ctx.a.candidate.id }),
    create: async () => ({ body: { company: ctx.a.company.id, title: "New question", description: "Describe it", timeout: 30 } }),
    update: () => ({ title: "Updated question" }),
    fresh: async () => ({ id: (await createQuestion(ctx.a.manager.pb, ctx.a.company.id, "text")).question.id }),
  },
  ...(["video_questions", "text_questions"] as const).map(
    (name): Row => ({
      collection: name,
      allowed: {
        list: ["manager"],
        view: ["manager"], // the candidate: through the interview route only (issue 20)
        create: ["manager"],
        update: ["manager"],
        delete: ["manager"],
      },
      existing: () => ({
        id: name === "video_questions" ? ctx.a.video.kindRecord.id : ctx.a.text.kindRecord.id,
        candidateId: ctx.a.candidate.id,
      }),
      create: async () => {
        const question = await ctx.a.manager.pb
          .collection("questions")
          .create({ company: ctx.a.company.id, title: "Kindless", description: "No kind yet", timeout: 30 });
        return { body: name === "video_questions" ? { question: question.id, takes: 2 } : { question: question.id } };
      },
      update: () => (name === "video_questions" ? { takes: 3 } : {}),
      fresh: async () => ({ id: (await createQuestion(ctx.a.manager.pb, ctx.a.company.id, name === "video_questions" ? "video" : "text")).kindRecord.id }),
    }),
  ),
  {
    collection: "jobs",
    allowed: {
      // the candidate reads its job through the interview route only (issue 20)
      list: ["manager"],
      view: ["manager"],
      create: ["manager"],
      update: ["manager"],
      delete: ["manager"],
    },
    existing: () => ({ id: ctx.a.job.id, candidateId: ctx.a.candidate.id }),
    create: async () => ({
      body: { company: ctx.a.company.id, title: "New job", description: "Do things", location: "Berlin", questions: [ctx.a.video.question.id] },
    }),
    update: () => ({ title: "Updated job" }),
    fresh: async () => ({
      id: (
        await ctx.a.manager.pb.collection("jobs").create({
          company: ctx.a.company.id,
          title: "Disposable job",
          description: "Do things",
          location: "Paris",
          questions: [ctx.a.text.question.id],
        })
      ).id,
    }),
  },
  {
    collection: "candidates",
    allowed: {
      list: ["manager"],
      view: ["manager", "candidate"],
      create: ["manager"],
      update: ["manager"],
      delete: ["manager"],
    },
    existing: () => ({ id: ctx.a.candidate.id, candidateId: ctx.a.candidate.id }),
    create: async () => ({ body: { job: ctx.a.job.id, email: uniqueEmail("invited") } }),
    update: () => ({ email: uniqueEmail("renamed") }),
    fresh: async () => {
      const candidate = await freshCandidate();
      return { id: candidate.id, candidateId: candidate.id };
    },
  },
  {
    collection: "answers",
    allowed: {
      list: ["manager", "candidate"],
      view: ["manager", "candidate"],
      // nobody through the records or batch API: a candidate stores an answer with its kind record through the
      // answers route below (issue 13: a bare answer counted its question as answered)
      create: [],
      update: [],
      delete: ["manager"],
    },
    existing: () => ({ id: ctx.videoAnswer.answer.id, candidateId: ctx.a.candidate.id }),
    create: async () => {
      const candidate = await freshCandidate();
      return { body: { candidate: candidate.id, question: ctx.a.video.question.id }, candidateId: candidate.id };
    },
    update: () => ({ question: ctx.a.text.question.id }),
    fresh: async () => {
      const candidate = await freshCandidate();
      const { answer } = await answerText(candidate.id, ctx.a.text.question.id);
      return { id: answer.id, candidateId: candidate.id };
    },
  },
  ...(["video_answers", "text_answers"] as const).map(
    (name): Row => ({
      collection: name,
      allowed: {
        list: ["manager", "candidate"],
        view: ["manager", "candidate"],
        create: [], // through the answers route only, as above
        update: [],
        delete: ["manager"],
      },
      existing: () => ({
        id: name === "video_answers" ? ctx.videoAnswer.kind.id : ctx.textAnswer.kind.id,
        candidateId: ctx.a.candidate.id,
      }),
      create: async () => {
        // an answer row without its kind record yet (only a superuser can make one now), of a fresh candidate
        const candidate = await freshCandidate();
        const question = name === "video_answers" ? ctx.a.video.question.id : ctx.a.text.question.id;
        const answer = await ctx.su.collection("answers").create({ id: randomId(), candidate: candidate.id, question });
        const body = name === "video_answers" ? { answer: answer.id, file: webmFile() } : { answer: answer.id, content: "Hello" };
        return { body, candidateId: candidate.id };
      },
      update: () => (name === "video_answers" ? { transcript: "forged" } : { content: "changed" }),
      fresh: async () => {
        const candidate = await freshCandidate();
        const made =
          name === "video_answers"
            ? await answerVideo(candidate.id, ctx.a.video.question.id)
            : await answerText(candidate.id, ctx.a.text.question.id);
        return { id: made.kind.id, candidateId: candidate.id };
      },
    }),
  ),
  {
    // The outgoing mail queue (issue 18, server/internal/mail/mail_queue.go): hidden, no API rules; the hooks write it,
    // the Go main sends it. It holds addresses and interview links, so nobody but superusers reads or writes it.
    collection: "mail_queue",
    hidden: true,
    allowed: { list: [], view: [], create: [], update: [], delete: [] },
    existing: () => ({ id: queuedMail.id }),
    create: async () => ({ body: { to: uniqueEmail("queued"), subject: "Hello", html: "<p>Hi</p>", status: "pending" } }),
    update: () => ({ status: "sent", to: uniqueEmail("redirected") }),
    fresh: async () => ({
      id: (await ctx.su.collection("mail_queue").create({ to: uniqueEmail("queued"), subject: "Hello", html: "<p>Hi</p>", status: "failed" })).id,
    }),
  },
  {
    // Staged takes' ownership and byte accounting (server/internal/takes): hidden, no API rules, only the
    // hooks (and superusers) touch it. The candidate presents the id of the take's own candidate.
    collection: "staged_takes",
    hidden: true,
    allowed: { list: [], view: [], create: [], update: [], delete: [] },
    existing: () => ({ id: ctx.stagedTake.id, candidateId: ctx.stagedTake.candidate }),
    create: async () => {
      const candidate = await freshCandidate();
      return { body: { take: randomId(), candidate: candidate.id, question: ctx.a.video.question.id, bytes: 0 }, candidateId: candidate.id };
    },
    update: () => ({ bytes: 0, retired: true }),
    fresh: async () => {
      const staged = await freshStagedTake(ctx.su);
      return { id: staged.id, candidateId: staged.candidate };
    },
  },
  {
    // Takes and time counted by the server (server/internal/interview/progress.go): hidden like staged_takes, so no
    // candidate resets the takes it used. A staged take's first part makes the row.
    collection: "question_progress",
    hidden: true,
    allowed: { list: [], view: [], create: [], update: [], delete: [] },
    existing: () => ({ id: ctx.progress.id, candidateId: ctx.progress.candidate }),
    create: async () => {
      const candidate = await freshCandidate();
      return { body: { candidate: candidate.id, question: ctx.a.video.question.id, takesStarted: 0 }, candidateId: candidate.id };
    },
    update: () => ({ takesStarted: 0 }),
    fresh: async () => {
      const progress = await progressOf(ctx.su, await freshStagedTake(ctx.su));
      return { id: progress.id, candidateId: progress.candidate };
    },
  },
  {
    // Share links (issue 15, server/internal/review/share_links*.go): the managers of the candidate's company list and
    // view them; nobody writes them through the records API (the share-link routes below do). tokenHash is hidden.
    collection: "share_links",
    allowed: { list: ["manager"], view: ["manager"], create: [], update: [], delete: [] },
    existing: () => ({ id: sharedLink.link.id }),
    create: async () => ({
      body: {
        candidate: ctx.a.candidate.id,
        createdBy: ctx.a.manager.user.id,
        tokenHash: "0".repeat(64),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        includeFeedback: true,
      },
    }),
    update: () => ({ includeFeedback: true, revokedAt: "", expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString() }),
    fresh: async () => ({ id: (await createLink(ctx.a.manager.pb, { candidate: ctx.a.candidate.id })).link.id }),
  },
  {
    // Issue 15: a manager's stars for one answer. Only the job's company's managers read them; each writes only
    // their own (the actor sends their own id as `manager`; forging someone else's is in tests/attacks/review-workflow.test.ts).
    collection: "ratings",
    allowed: { list: ["manager"], view: ["manager"], create: ["manager"], update: ["manager"], delete: ["manager"] },
    existing: () => ({ id: ctx.rating.id, candidateId: ctx.a.candidate.id }),
    create: async (actor) => {
      const { candidate, answer } = await answeredCandidate();
      return { body: { answer, candidate, manager: ownIdOr(actor, ctx.a.manager.user.id), stars: 5 }, candidateId: candidate };
    },
    update: () => ({ stars: 2 }),
    fresh: async () => {
      const { candidate, answer } = await answeredCandidate();
      const rating = await ctx.a.manager.pb.collection("ratings").create({ answer, candidate, manager: ctx.a.manager.user.id, stars: 3 });
      return { id: rating.id, candidateId: candidate };
    },
  },
  {
    // Issue 15: a thread per candidate, for the job's company's managers; the author edits or deletes their own.
    collection: "comments",
    allowed: { list: ["manager"], view: ["manager"], create: ["manager"], update: ["manager"], delete: ["manager"] },
    existing: () => ({ id: ctx.comment.id, candidateId: ctx.a.candidate.id }),
    create: async (actor) => {
      const candidate = (await freshCandidate()).id;
      return { body: { candidate, author: ownIdOr(actor, ctx.a.manager.user.id), text: "Worth a second interview." }, candidateId: candidate };
    },
    update: () => ({ text: "Changed my mind." }),
    fresh: async () => {
      const candidate = (await freshCandidate()).id;
      const comment = await ctx.a.manager.pb.collection("comments").create({ candidate, author: ctx.a.manager.user.id, text: "First impression." });
      return { id: comment.id, candidateId: candidate };
    },
  },
  {
    // Issue 18: a company's webhook endpoints, for its managers only (server/internal/webhooks). The URL is
    // under .invalid, which never resolves: the shared server records deliveries for it and sends nothing anywhere.
    collection: "webhook_endpoints",
    allowed: { list: ["manager"], view: ["manager"], create: ["manager"], update: ["manager"], delete: ["manager"] },
    existing: () => ({ id: hooks.endpoint.id }),
    create: async () => ({ body: { company: ctx.a.company.id, url: "https://hooks.invalid/in", events: ["candidate.decided"] } }),
    update: () => ({ enabled: false }),
    fresh: async () => ({ id: (await newHookEndpoint()).id }),
  },
  {
    // Issue 18: the delivery log, read by the endpoint's company's managers; only the server writes it (the hooks, the
    // Go sender, the send-again route).
    collection: "webhook_deliveries",
    allowed: { list: ["manager"], view: ["manager"], create: [], update: [], delete: [] },
    existing: () => ({ id: hooks.delivery.id }),
    create: async () => ({ body: { endpoint: hooks.endpoint.id, event: "candidate.decided", status: "succeeded", attempts: 1, payload: { type: "forged" } } }),
    update: () => ({ status: "succeeded", lastError: "" }),
    fresh: async () => ({ id: (await newHookDelivery()).id }),
  },
  {
    // Issue 19: the audit log of exports and erasures, read by the company's managers; append-only for everyone (the
    // export and erase routes write it; internal/lifecycle/audit_log.go refuses updates and deletes even to superusers).
    collection: "audit_log",
    allowed: { list: ["manager"], view: ["manager"], create: [], update: [], delete: [] },
    existing: () => ({ id: audit.entry.id }),
    create: async () => ({ body: { company: ctx.a.company.id, actor: ctx.a.manager.user.id, action: "erase", candidateId: ctx.a.candidate.id } }),
    update: () => ({ action: "erase" }),
    fresh: async () => ({ id: (await newAuditEntry()).id }),
  },
  {
    // A company's own words for its decision messages (server/internal/messages): its managers read and write them.
    // Each record lives in a company of A's manager made for it, as a company holds one per kind and language.
    collection: "decision_templates",
    allowed: { list: ["manager"], view: ["manager"], create: ["manager"], update: ["manager"], delete: ["manager"] },
    existing: () => ({ id: messages.template.id }),
    create: async () => ({ body: { company: (await createCompany(ctx.a.manager.pb, "Template company")).id, ...TEMPLATE } }),
    update: () => ({ subject: "Changed for {job}" }),
    fresh: async () => ({ id: (await newTemplate()).id }),
  },
  {
    // What was sent to a candidate (server/internal/messages): the job's company's managers read it; only the send
    // route and the bulk action write it. The candidate presents the key of the candidate it was sent to.
    collection: "decision_messages",
    allowed: { list: ["manager"], view: ["manager"], create: [], update: [], delete: [] },
    existing: () => ({ id: messages.sent.id, candidateId: messages.sent.candidate }),
    create: async () => {
      const candidate = (await freshCandidate()).id;
      return {
        body: { candidate, kind: "advance", language: "en", subject: "Forged", body: "Forged", sentAt: new Date().toISOString(), sentBy: ctx.a.manager.user.id },
        candidateId: candidate,
      };
    },
    update: () => ({ subject: "Forged", body: "Forged" }),
    fresh: async () => {
      const sent = await newDecisionMessage();
      return { id: sent.id, candidateId: sent.candidate };
    },
  },
  {
    // A candidate's own withdrawal remembers their link by its key's hash (server/internal/interview/withdrawal.go):
    // no API rules at all, so the interview read alone says a link was withdrawn, to its key's holder.
    collection: "withdrawn_links",
    hidden: true,
    allowed: { list: [], view: [], create: [], update: [], delete: [] },
    existing: () => ({ id: withdrawnLink.id }),
    create: async () => ({ body: { keyHash: randomHash(), language: "de" } }),
    update: () => ({ language: "fr" }),
    fresh: async () => ({ id: (await ctx.su.collection("withdrawn_links").create({ keyHash: randomHash(), language: "en" })).id }),
  },
];

// Decision messages: a template of A's, and a message sent to a candidate of A's job, made the way the product makes them.
const TEMPLATE = { kind: "advance", language: "de", subject: "Weiter: {job}", body: "Hallo {name}, bis bald bei {company}." };
const messages = {} as { template: RecordModel; sent: RecordModel };
const newTemplate = async () =>
  ctx.a.manager.pb.collection("decision_templates").create({ company: (await createCompany(ctx.a.manager.pb, "Template company")).id, ...TEMPLATE });
const messageRoute = (candidate: string, preview = false) => `/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision-message${preview ? "/preview" : ""}`;
/** A fresh candidate of A's job, advanced. */
async function advancedCandidate() {
  const candidate = (await freshCandidate()).id;
  await ctx.a.manager.pb.send(`/api/screenroom/candidates/${candidate}/decision`, { method: "POST", body: { decision: "advance" } });
  return candidate;
}
async function newDecisionMessage() {
  return ctx.a.manager.pb.send<RecordModel>(messageRoute(await advancedCandidate()), { method: "POST", body: { kind: "advance" } });
}

// A withdrawn link of A's company, made the only way one is: a candidate's own withdrawal.
let withdrawnLink: RecordModel;
const randomHash = () => Array.from({ length: 64 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");

// Issue 19: an audit entry of A's company, written the only way one is: a manager's export of a candidate.
const audit = {} as { entry: RecordModel };
async function exportAs(pb: PocketBase, candidate: string) {
  const headers: Record<string, string> = pb.authStore.token ? { Authorization: pb.authStore.token } : {};
  const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${encodeURIComponent(candidate)}/export`, { headers });
  await res.arrayBuffer();
  return res.status;
}
async function newAuditEntry() {
  const candidate = (await freshCandidate()).id;
  expect(await exportAs(ctx.a.manager.pb, candidate)).toBe(200);
  return ctx.su.collection("audit_log").getFirstListItem(ctx.su.filter("candidateId = {:c}", { c: candidate }));
}

// Issue 18: an endpoint of A's company and a finished delivery of it (made by a superuser: nothing else writes one).
const hooks = {} as { endpoint: RecordModel; delivery: RecordModel };
const newHookEndpoint = () =>
  ctx.a.manager.pb.collection("webhook_endpoints").create({ company: ctx.a.company.id, url: "https://hooks.invalid/in", events: ["candidate.decided"] });
const newHookDelivery = () =>
  ctx.su.collection("webhook_deliveries").create({
    endpoint: hooks.endpoint.id,
    candidate: ctx.a.candidate.id,
    event: "candidate.decided",
    status: "failed",
    attempts: 1,
    payload: { type: "candidate.decided", timestamp: new Date().toISOString(), data: {} },
  });

function pngBlob() {
  // created lazily so the fixture is read inside the test run
  return new File([Buffer.from(PNG_1PX, "base64")], "logo.png", { type: "image/png" });
}
const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

beforeAll(async () => {
  const a = await world("a");
  const b = await world("b");
  const noCompany = await signUp({ email: uniqueEmail("nocompany") });
  const invitee = await signUp({ email: uniqueEmail("invitee") });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: invitee.user.email });
  const unverified = await signUp({ email: uniqueEmail("unverified") });
  await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: unverified.user.email });
  const videoAnswer = await answerVideo(a.candidate.id, a.video.question.id);
  const textAnswer = await answerText(a.candidate.id, a.text.question.id);
  const su = await superuser();
  await su.collection("users").update(unverified.user.id, { verified: false });
  const rating = await a.manager.pb.collection("ratings").create({ answer: videoAnswer.answer.id, candidate: a.candidate.id, manager: a.manager.user.id, stars: 4 });
  const comment = await a.manager.pb.collection("comments").create({ candidate: a.candidate.id, author: a.manager.user.id, text: "Clear and calm." });
  ctx = { a, b, noCompany, invitee, unverified, invite, videoAnswer, textAnswer, stagedTake: undefined as unknown as StagedTake, progress: undefined as unknown as Ctx["progress"], rating, comment, su };
  ctx.stagedTake = await freshStagedTake(su);
  ctx.progress = await progressOf(su, ctx.stagedTake);
});

// The interview e-mail queued for A's candidate (the mail_queue row).
let queuedMail: RecordModel;
beforeAll(async () => {
  queuedMail = await ctx.su.collection("mail_queue").getFirstListItem(ctx.su.filter("to = {:to}", { to: ctx.a.candidate.email }));
});

beforeAll(async () => {
  hooks.endpoint = await newHookEndpoint();
  hooks.delivery = await newHookDelivery();
});

beforeAll(async () => {
  audit.entry = await newAuditEntry();
});

beforeAll(async () => {
  const candidate = (await freshCandidate()).id;
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${key}/withdraw`, { method: "POST" });
  const hash = createHash("sha256").update(key).digest("hex");
  withdrawnLink = await ctx.su.collection("withdrawn_links").getFirstListItem(ctx.su.filter("keyHash = {:h}", { h: hash }));
});

beforeAll(async () => {
  messages.template = await newTemplate();
  messages.sent = await newDecisionMessage();
});

// A share link to A's candidate, who answered on video (the share-link rows and routes below).
let sharedLink: CreatedLink;
beforeAll(async () => {
  sharedLink = await createLink(ctx.a.manager.pb, { candidate: ctx.a.candidate.id });
});

describe.each(rows)("$collection", (row) => {
  describe.each(ACTORS)("as %s", (actor) => {
    it(`list ${row.allowed.list.includes(actor) ? "includes" : "omits"} the record`, async () => {
      const target = row.existing();
      const pb = clientFor(actor, target.candidateId ?? ctx.a.candidate.id);
      const list = () => pb.collection(row.collection).getFullList({ filter: pb.filter("id = {:id}", { id: target.id }) });
      if (row.hidden && !row.allowed.list.includes(actor)) {
        expect(await statusOf(list)).toBe(403);
        return;
      }
      const items = await list();
      expect(items.map((r) => r.id).includes(target.id)).toBe(row.allowed.list.includes(actor));
    });

    it(`view is ${row.allowed.view.includes(actor) ? "allowed" : "refused"}`, async () => {
      const target = row.existing();
      const pb = clientFor(actor, target.candidateId ?? ctx.a.candidate.id);
      const status = await statusOf(() => pb.collection(row.collection).getOne(target.id));
      if (row.allowed.view.includes(actor)) expect(status).toBe(200);
      else expect([403, 404]).toContain(status);
    });

    it(`create is ${row.allowed.create.includes(actor) ? "allowed" : "refused"}`, async () => {
      const { body, candidateId } = await row.create(actor);
      const pb = clientFor(actor, candidateId ?? ctx.a.candidate.id);
      let createdId = "";
      const status = await statusOf(async () => {
        createdId = (await pb.collection(row.collection).create(body)).id;
      });
      if (row.allowed.create.includes(actor)) {
        expect(status).toBe(200);
        expect((await ctx.su.collection(row.collection).getOne(createdId)).id).toBe(createdId);
      } else {
        expect([400, 403]).toContain(status);
      }
    });

    it(`update is ${row.allowed.update.includes(actor) ? "allowed" : "refused"}`, async () => {
      const target = await row.fresh(actor);
      const pb = clientFor(actor, target.candidateId ?? ctx.a.candidate.id);
      const before = await ctx.su.collection(row.collection).getOne(target.id);
      const change = row.update();
      const status = await statusOf(() => pb.collection(row.collection).update(target.id, change));
      const after = await ctx.su.collection(row.collection).getOne(target.id);
      if (row.allowed.update.includes(actor)) {
        expect(status).toBe(200);
        for (const [field, value] of Object.entries(change)) expect(after[field]).toEqual(value);
      } else {
        expect([400, 403, 404]).toContain(status);
        expect(after.updated).toBe(before.updated);
      }
    });

    it(`delete is ${row.allowed.delete.includes(actor) ? "allowed" : "refused"}`, async () => {
      if (row.collection === "users" && actor === "manager") {
        // A is the only manager of its company: covered by the self-deletion test instead
        return;
      }
      const target = await row.fresh(actor);
      const pb = clientFor(actor, target.candidateId ?? ctx.a.candidate.id);
      const status = await statusOf(() => pb.collection(row.collection).delete(target.id));
      const stillThere = await statusOf(() => ctx.su.collection(row.collection).getOne(target.id));
      if (row.allowed.delete.includes(actor)) {
        expect(status).toBe(200);
        expect(stillThere).toBe(404);
      } else {
        expect([400, 403, 404]).toContain(status);
        expect(stillThere).toBe(200);
      }
    });
  });
});

// The interview's write path: the answer and its kind record in one request (server/internal/answers),
// held to the same create rules as the collections above.
describe.each([
  ["text", () => ({ question: ctx.a.text.question.id, content: "Hello" })],
  ["video", () => ({ question: ctx.a.video.question.id, file: webmFile() })],
] as const)("POST /api/screenroom/answers, a %s answer", (_kind, fields) => {
  const allowed: Actor[] = ["candidate"];
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = await freshCandidate();
    const pb = clientFor(actor, candidate.id);
    const id = randomId();
    const status = await statusOf(() => postAnswer(pb, { id, candidate: candidate.id, ...fields() }));
    const stored = await statusOf(() => ctx.su.collection("answers").getOne(id));
    if (allowed.includes(actor)) {
      expect(status).toBe(200);
      expect(stored).toBe(200);
    } else {
      expect([400, 403]).toContain(status);
      expect(stored).toBe(404);
    }
  });
});

// Staged takes (server/internal/takes/take_routes.go): a video take uploaded in parts while it is recorded, discarded,
// or submitted through the answers route. Nothing staged is an answer, and only the candidate who recorded it (the
// answers create rule on its first part) touches it. The take belongs to a fresh candidate of A's job; besides the
// table's actors, "otherCandidate" presents the id of B's candidate.
describe("staged takes", () => {
  type TakeActor = Actor | "otherCandidate";
  const TAKE_ACTORS: TakeActor[] = [...ACTORS, "otherCandidate"];
  const takeClient = (actor: TakeActor, candidateId: string) =>
    actor === "otherCandidate" ? asCandidate(ctx.b.candidate.id) : clientFor(actor, candidateId);
  const question = () => ctx.a.video.question.id;
  const bytes = () => new Uint8Array(fixture("answer.webm"));
  const stagingDir = (takeId: string) => join(inject("pbDataDir"), "screenroom_takes", takeId);

  /** A take of A's fresh candidate with its first part (up to `cut`) staged. */
  async function stagedTake(cut = bytes().length) {
    const candidate = (await freshCandidate()).id;
    const id = randomId();
    await putPart(asCandidate(candidate), id, 0, bytes().subarray(0, cut), question());
    return { candidate, id };
  }

  it.each(TAKE_ACTORS)("PUT a take's first part as %s", async (actor) => {
    const candidate = (await freshCandidate()).id;
    const id = randomId();
    const status = await statusOf(() => putPart(takeClient(actor, candidate), id, 0, bytes(), question()));
    expect(status).toBe(actor === "candidate" ? 200 : 403);
    expect(existsSync(stagingDir(id))).toBe(actor === "candidate");
  });

  it.each(TAKE_ACTORS)("PUT a later part as %s", async (actor) => {
    const take = await stagedTake(5000);
    const status = await statusOf(() => putPart(takeClient(actor, take.candidate), take.id, 5000, bytes().subarray(5000), question()));
    expect(status).toBe(actor === "candidate" ? 200 : 403);
  });

  it.each(TAKE_ACTORS)("DELETE the take as %s", async (actor) => {
    const take = await stagedTake();
    const status = await statusOf(() => deleteTake(takeClient(actor, take.candidate), take.id));
    // the SDK reports the route's 204 as 200
    expect(status).toBe(actor === "candidate" ? 200 : 403);
    expect(existsSync(stagingDir(take.id))).toBe(actor !== "candidate");
  });

  it.each(TAKE_ACTORS)("POST /api/screenroom/answers with the take as %s", async (actor) => {
    const take = await stagedTake();
    const fields = { id: take.id, staged: "true", candidate: take.candidate, question: question(), size: String(bytes().length), fileName: "answer.webm" };
    const status = await statusOf(() => postAnswer(takeClient(actor, take.candidate), fields));
    const stored = await statusOf(() => ctx.su.collection("answers").getOne(take.id));
    if (actor === "candidate") {
      expect(status).toBe(200);
      expect(stored).toBe(200);
      expect(existsSync(stagingDir(take.id))).toBe(false);
    } else {
      // refused before the take is even looked at: no candidate key, or a body naming another candidate than the key's
      expect(status).toBe(400);
      expect(stored).toBe(404);
      expect(existsSync(stagingDir(take.id))).toBe(true);
    }
  });
});

// The share-link routes (issue 15, server/internal/review/share_links_routes.go and share_links_shared.go): making and
// revoking a link is for the managers of the candidate's company (anyone else: 404, nothing written); opening one and
// streaming its candidate's video is for whoever holds the token, whoever else they are, and reads no session.
describe("share-link routes", () => {
  it.each(ACTORS)("POST /api/screenroom/share-links as %s", async (actor) => {
    const candidate = await freshCandidate();
    const pb = clientFor(actor, candidate.id);
    const status = await statusOf(() => createLink(pb, { candidate: candidate.id }));
    const stored = await ctx.su.collection("share_links").getFullList({ filter: ctx.su.filter("candidate = {:c}", { c: candidate.id }) });
    expect({ status, stored: stored.length }).toEqual(actor === "manager" ? { status: 200, stored: 1 } : { status: 404, stored: 0 });
  });

  it.each(ACTORS)("POST /api/screenroom/share-links/{id}/revoke as %s", async (actor) => {
    const { link, token } = await createLink(ctx.a.manager.pb, { candidate: ctx.a.candidate.id });
    const status = await statusOf(() => revokeLink(clientFor(actor, ctx.a.candidate.id), link.id));
    const stored = await ctx.su.collection("share_links").getOne(link.id);
    if (actor === "manager") {
      expect(status).toBe(200);
      expect(stored.revokedBy).toBe(ctx.a.manager.user.id);
      expect((await openShared(token)).status).toBe(410);
    } else {
      expect(status).toBe(404);
      expect(stored.revokedAt).toBe("");
      expect((await openShared(token)).status).toBe(200);
    }
  });

  it("never returns a link's tokenHash to a manager: list, view, expand from the candidate", async () => {
    const pb = ctx.a.manager.pb;
    const listed = await pb.collection("share_links").getFullList({ filter: pb.filter("candidate = {:c}", { c: ctx.a.candidate.id }) });
    const viewed = await pb.collection("share_links").getOne(sharedLink.link.id);
    const candidate = await pb.collection("candidates").getOne(ctx.a.candidate.id, { expand: "share_links_via_candidate" });
    const expanded = (candidate.expand?.share_links_via_candidate ?? []) as RecordModel[];
    expect(listed.map((l) => l.id)).toContain(sharedLink.link.id);
    expect(expanded.map((l) => l.id)).toContain(sharedLink.link.id);
    for (const link of [...listed, viewed, ...expanded]) expect(link).not.toHaveProperty("tokenHash");
    // the superuser's view has it: the field is there, hidden
    expect((await ctx.su.collection("share_links").getOne(sharedLink.link.id)).tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(ACTORS)("GET /api/screenroom/shared/{token} and its video as %s", async (actor) => {
    const pb = clientFor(actor, ctx.a.candidate.id);
    const view = await pb.send<{ candidateEmail: string }>(`/api/screenroom/shared/${sharedLink.token}`, { method: "GET" });
    expect(view.candidateEmail).toBe(ctx.a.candidate.email);
    // the video through the link, with the actor's own headers (a session, a candidate's key) beside it
    const headers: Record<string, string> = {};
    if (pb.authStore.token) headers.Authorization = pb.authStore.token;
    if (actor === "candidate") headers["X-Candidate-Key"] = (await keyOf(ctx.a.candidate.id))!;
    const res = await fetch(`${pbUrl()}/api/screenroom/shared/${sharedLink.token}/videos/${ctx.videoAnswer.kind.id}`, { headers });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(fixture("answer.webm").length);
  });
});

// The device check's timed upload (server/internal/interview, issue 17): the candidate only, at its own key;
// it stores nothing (tests/connection-check-route.test.ts, tests/attacks/connection-check.test.ts).
describe("POST /api/screenroom/interviews/{key}/connection-check", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const path = `/api/screenroom/interviews/${await keyOf(ctx.a.candidate.id)}/connection-check`;
    const status = await statusOf(() =>
      clientFor(actor, ctx.a.candidate.id).send(path, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: new Uint8Array(4096),
      }),
    );
    // the SDK reports the route's 204 as 200
    expect(status).toBe(actor === "candidate" ? 200 : 404);
  });
});

// Consent (server/internal/interview, issue 17): only the candidate, at its own key, gives it; anyone else
// gets 404 and changes nothing (tests/consent.test.ts: idempotence, the refusals before it, the field's protection).
describe("POST /api/screenroom/interviews/{key}/consent", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = (await freshCandidateWithoutConsent()).id;
    const path = `/api/screenroom/interviews/${await keyOf(candidate)}/consent`;
    const status = await statusOf(() => clientFor(actor, candidate).send(path, { method: "POST" }));
    expect(status).toBe(actor === "candidate" ? 200 : 404);
    const stored = (await (await superuser()).collection("candidates").getOne(candidate)).consentedAt as string;
    expect(stored !== "").toBe(actor === "candidate");
  });
});

// The switcher's choice (server/internal/interview/withdrawal.go): only the candidate, at its own key, stores it;
// anyone else gets 404 and changes nothing (tests/candidate-languages.test.ts, tests/attacks/candidate-languages.test.ts).
describe("POST /api/screenroom/interviews/{key}/language", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = (await freshCandidate()).id;
    const path = `/api/screenroom/interviews/${await keyOf(candidate)}/language`;
    const status = await statusOf(() => clientFor(actor, candidate).send(path, { method: "POST", body: { language: "de" } }));
    // the SDK reports the route's 204 as 200
    expect(status).toBe(actor === "candidate" ? 200 : 404);
    expect((await ctx.su.collection("candidates").getOne(candidate)).language).toBe(actor === "candidate" ? "de" : "");
  });
});

// The candidate's own withdrawal (server/internal/interview/withdrawal.go): only the candidate, at its own key,
// withdraws and has their answers erased; anyone else gets 404 and nothing is erased (tests/export-erasure.test.ts).
describe("POST /api/screenroom/interviews/{key}/withdraw", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = (await freshCandidate()).id;
    await answerText(candidate, ctx.a.text.question.id);
    const path = `/api/screenroom/interviews/${await keyOf(candidate)}/withdraw`;
    const status = await statusOf(() => clientFor(actor, candidate).send(path, { method: "POST" }));
    const left = await statusOf(() => ctx.su.collection("candidates").getOne(candidate));
    if (actor === "candidate") {
      expect({ status, left }).toEqual({ status: 200, left: 404 });
    } else {
      expect({ status, left }).toEqual({ status: 404, left: 200 });
    }
  });
});

// Invites from a CSV file (server/internal/candidates, issue 18): the job's company's managers only; 401
// without a user's session, 404 for anyone else; nobody else's request creates a candidate.
describe("POST /api/screenroom/jobs/{id}/invites/bulk", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const email = uniqueEmail("bulk-matrix");
    const status = await statusOf(() =>
      clientFor(actor, ctx.a.candidate.id).send(`/api/screenroom/jobs/${ctx.a.job.id}/invites/bulk`, {
        method: "POST",
        body: { importId: `matrix-${randomId()}`, rows: [{ email }] },
      }),
    );
    const stored = await ctx.su.collection("candidates").getFullList({ filter: ctx.su.filter("email = {:e}", { e: email }) });
    const expected = actor === "manager" ? 200 : actor === "anonymous" || actor === "candidate" ? 401 : 404;
    expect({ status, stored: stored.length }).toEqual({ status: expected, stored: actor === "manager" ? 1 : 0 });
  });
});

// The pipeline's bulk actions (server/internal/bulk): a verified manager of the job's company only; 401 without a
// product account's session (nobody, a candidate's key), 404 for anyone else; nobody else's request changes, mails,
// erases or exports anything (tests/attacks/bulk-actions.test.ts has the rest).
describe("POST /api/screenroom/jobs/{id}/bulk/*", () => {
  const expectedFor = (actor: Actor) => (actor === "manager" ? 200 : actor === "anonymous" || actor === "candidate" ? 401 : 404);
  const routes = [
    ["decide", { decision: "reject" }],
    ["resend-invite", {}],
    ["message", { kind: "advance" }],
    ["erase", {}],
  ] as const;
  it.each(ACTORS.flatMap((actor) => routes.map(([action, extra]) => [actor, action, extra] as const)))("as %s: %s", async (actor, action, extra) => {
    const candidate = await freshCandidate();
    // a message goes to a candidate decided so
    if (action === "message") await ctx.su.collection("candidates").update(candidate.id, { decision: "advance" });
    const mailsBefore = (await ctx.su.collection("mail_queue").getList(1, 1, { filter: ctx.su.filter("to = {:to}", { to: candidate.email }) })).totalItems;
    const status = await statusOf(() => bulkAction(clientFor(actor, candidate.id), ctx.a.job.id, action, { candidates: [candidate.id], ...extra }));
    const stored = await ctx.su
      .collection("candidates")
      .getOne(candidate.id)
      .catch(() => null);
    const mails = (await ctx.su.collection("mail_queue").getList(1, 1, { filter: ctx.su.filter("to = {:to}", { to: candidate.email }) })).totalItems;
    const allowed = actor === "manager";
    expect(status).toBe(expectedFor(actor));
    expect({
      exists: stored !== null,
      decision: stored?.decision ?? "",
      mailed: mails > mailsBefore,
    }).toEqual({
      exists: !(allowed && action === "erase"),
      decision: allowed && action === "decide" ? "reject" : action === "message" ? "advance" : "",
      mailed: allowed && (action === "resend-invite" || action === "message"),
    });
  });
  it.each(ACTORS)("as %s: export", async (actor) => {
    const candidate = await freshCandidate();
    const status = await statusOf(() => bulkExport(clientFor(actor, candidate.id), ctx.a.job.id, { candidates: [candidate.id] }));
    expect(status).toBe(expectedFor(actor));
    const logged = await ctx.su.collection("audit_log").getFullList({ filter: ctx.su.filter("candidateId = {:c}", { c: candidate.id }) });
    expect(logged.map((entry) => entry.action)).toEqual(actor === "manager" ? ["export"] : []);
  });
});

// Transcript search (server/internal/search/search.go, issue 18): the company's managers only; everyone else gets the
// same 404 (tests/search.test.ts, tests/attacks/search.test.ts).
describe("GET /api/screenroom/companies/{id}/search", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const path = `/api/screenroom/companies/${ctx.a.company.id}/search`;
    const status = await statusOf(() => clientFor(actor, ctx.a.candidate.id).send(path, { query: { q: "answer" } }));
    expect(status).toBe(actor === "manager" ? 200 : 404);
  });
});

// Closing and reopening a job (issue 19, server/internal/jobs): the job's company's managers only; anyone
// else gets 404 and the job stays as it was. The job's closedAt is never written through the records API (but by a
// superuser), so the close route is its only way.
describe("POST /api/screenroom/jobs/{id}/close and /reopen", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const job = await ctx.su.collection("jobs").create({ company: ctx.a.company.id, title: "Matrix job", description: "To close", location: "Remote", questions: [ctx.a.text.question.id] });
    const pb = clientFor(actor, ctx.a.candidate.id);
    const closed = await statusOf(() => pb.send(`/api/screenroom/jobs/${job.id}/close`, { method: "POST" }));
    const closedAt = (await ctx.su.collection("jobs").getOne(job.id)).closedAt as string;
    expect({ closed, isClosed: closedAt !== "" }).toEqual({ closed: actor === "manager" ? 200 : 404, isClosed: actor === "manager" });
    await ctx.su.collection("jobs").update(job.id, { closedAt: "2026-01-01 00:00:00.000Z" });
    const reopened = await statusOf(() => pb.send(`/api/screenroom/jobs/${job.id}/reopen`, { method: "POST" }));
    const after = (await ctx.su.collection("jobs").getOne(job.id)).closedAt as string;
    expect({ reopened, isClosed: after !== "" }).toEqual({ reopened: actor === "manager" ? 200 : 404, isClosed: actor !== "manager" });
    // the records API: nobody's update writes closedAt (a manager's save keeps it, everyone else's is refused)
    await statusOf(() => pb.collection("jobs").update(job.id, { closedAt: "" }));
    await statusOf(() => pb.collection("jobs").update(job.id, { closedAt: "2026-02-02 00:00:00.000Z" }));
    expect((await ctx.su.collection("jobs").getOne(job.id)).closedAt).toBe(after);
  });
});

// A company's retention period (issue 19, server/internal/lifecycle/retention.go): set by its managers only; what the
// next run deletes is read by them only, everyone else gets the same 404.
describe("companies.retentionMonths and GET /api/screenroom/companies/{id}/retention", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const pb = clientFor(actor, ctx.a.candidate.id);
    await ctx.su.collection("companies").update(ctx.a.company.id, { retentionMonths: 0 });
    const set = await statusOf(() => pb.collection("companies").update(ctx.a.company.id, { retentionMonths: 24 }));
    const stored = (await ctx.su.collection("companies").getOne(ctx.a.company.id)).retentionMonths as number;
    expect({ set, stored }).toEqual(actor === "manager" ? { set: 200, stored: 24 } : { set: 404, stored: 0 });
    await ctx.su.collection("companies").update(ctx.a.company.id, { retentionMonths: 0 });
    const read = await statusOf(() => pb.send(`/api/screenroom/companies/${ctx.a.company.id}/retention`, {}));
    expect(read).toBe(actor === "manager" ? 200 : 404);
  });
});

// A company's e-mail settings (companies.timeZone and mailFooterOff, server/internal/companies/settings.go) and a
// job's candidate language (jobs.language): set by the company's managers only; anyone else gets the same 404 and
// nothing changes.
describe("companies.timeZone and mailFooterOff, jobs.language", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const pb = clientFor(actor, ctx.a.candidate.id);
    await ctx.su.collection("companies").update(ctx.a.company.id, { timeZone: "", mailFooterOff: false });
    await ctx.su.collection("jobs").update(ctx.a.job.id, { language: "" });
    const set = await statusOf(() => pb.collection("companies").update(ctx.a.company.id, { timeZone: "Europe/Berlin", mailFooterOff: true }));
    const language = await statusOf(() => pb.collection("jobs").update(ctx.a.job.id, { language: "de" }));
    const company = await ctx.su.collection("companies").getOne(ctx.a.company.id);
    const job = await ctx.su.collection("jobs").getOne(ctx.a.job.id);
    const stored = { timeZone: company.timeZone as string, mailFooterOff: company.mailFooterOff as boolean, language: job.language as string };
    expect({ set, language, stored }).toEqual(
      actor === "manager"
        ? { set: 200, language: 200, stored: { timeZone: "Europe/Berlin", mailFooterOff: true, language: "de" } }
        : { set: 404, language: 404, stored: { timeZone: "", mailFooterOff: false, language: "" } },
    );
    await ctx.su.collection("companies").update(ctx.a.company.id, { timeZone: "", mailFooterOff: false });
    await ctx.su.collection("jobs").update(ctx.a.job.id, { language: "" });
  });
});

// Export and erasure (issue 19, server/internal/lifecycle: export.go and erasure.go): managers of the job's company only;
// anyone else, the unverified account included, gets 404, nothing is erased and nothing is logged.
describe("GET /api/screenroom/candidates/{id}/export", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = await freshCandidate();
    expect(await exportAs(clientFor(actor, candidate.id), candidate.id)).toBe(actor === "manager" ? 200 : 404);
    const logged = await ctx.su.collection("audit_log").getFullList({ filter: ctx.su.filter("candidateId = {:c}", { c: candidate.id }) });
    expect(logged.map((entry) => entry.action)).toEqual(actor === "manager" ? ["export"] : []);
  });
});

describe("POST /api/screenroom/candidates/{id}/erase", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const { candidate } = await answeredCandidate();
    const status = await statusOf(() => clientFor(actor, candidate).send(`/api/screenroom/candidates/${candidate}/erase`, { method: "POST" }));
    const left = await statusOf(() => ctx.su.collection("candidates").getOne(candidate));
    expect({ status, left }).toEqual(actor === "manager" ? { status: 200, left: 404 } : { status: 404, left: 200 });
  });
});

// Decision messages' routes (server/internal/messages): the managers of the company (templates) or of the candidate's
// job's company (preview, send) only; anyone else, the unverified account included, gets the same 404, and nothing is
// sent or recorded.
describe("decision message routes", () => {
  it.each(ACTORS)("GET and preview a company's templates as %s", async (actor) => {
    const pb = clientFor(actor, ctx.a.candidate.id);
    const base = `/api/screenroom/companies/${ctx.a.company.id}/decision-templates`;
    const read = await statusOf(() => pb.send(base, {}));
    const preview = await statusOf(() => pb.send(`${base}/preview`, { method: "POST", body: { kind: "reject", language: "en", subject: "S {job}", body: "B" } }));
    expect({ read, preview }).toEqual(actor === "manager" ? { read: 200, preview: 200 } : { read: 404, preview: 404 });
  });

  it.each(ACTORS)("preview and send a candidate's decision message as %s", async (actor) => {
    const candidate = await advancedCandidate();
    const pb = clientFor(actor, candidate);
    const preview = await statusOf(() => pb.send(messageRoute(candidate, true), { method: "POST", body: { kind: "advance" } }));
    const sent = await statusOf(() => pb.send(messageRoute(candidate), { method: "POST", body: { kind: "advance" } }));
    const stored = await ctx.su.collection("decision_messages").getFullList({ filter: ctx.su.filter("candidate = {:c}", { c: candidate }) });
    expect({ preview, sent, stored: stored.length }).toEqual(actor === "manager" ? { preview: 200, sent: 200, stored: 1 } : { preview: 404, sent: 404, stored: 0 });
  });
});

describe("audit_log beyond the table: append-only for superusers too", () => {
  it("refuses a superuser's update and delete of an entry", async () => {
    const entry = await newAuditEntry();
    expect(await statusOf(() => ctx.su.collection("audit_log").update(entry.id, { action: "erase" }))).toBe(400);
    expect(await statusOf(() => ctx.su.collection("audit_log").delete(entry.id))).toBe(400);
    expect(await ctx.su.collection("audit_log").getOne(entry.id)).toMatchObject({ action: "export", actor: ctx.a.manager.user.id, created: entry.created });
  });
});

describe("users beyond the table", () => {
  it("a user can delete their own account, and nobody else's", async () => {
    const { pb, user } = await signUp();
    const stranger = await signUp();
    expect(await statusOf(() => stranger.pb.collection("users").delete(user.id))).toBe(404);
    expect(await statusOf(() => pb.collection("users").delete(user.id))).toBe(200);
    expect(await statusOf(() => ctx.su.collection("users").getOne(user.id))).toBe(404);
  });

  it("fellow managers see each other's name, e-mail and avatar, but not the primary company", async () => {
    const fellow = await signUp({ email: uniqueEmail("fellow") });
    const invite = await ctx.a.manager.pb.collection("manager_invites").create({ company: ctx.a.company.id, email: fellow.user.email });
    const res = await fetch(`${pbUrl()}/api/screenroom/invites/${invite.id}/accept`, {
      method: "POST",
      headers: { Authorization: fellow.pb.authStore.token },
    });
    expect(res.status).toBe(200);
    const seen = await fellow.pb.collection("users").getOne(ctx.a.manager.user.id);
    expect(seen.email).toBe(ctx.a.manager.user.email);
    const stored = await ctx.su.collection("users").getOne(ctx.a.manager.user.id);
    expect(seen.firstName).toBe(stored.firstName);
    expect(seen.lastName).toBe(stored.lastName);
    expect("avatar" in seen).toBe(true);
    expect(seen.primaryCompany).toBeUndefined();
    const self = await ctx.a.manager.pb.collection("users").getOne(ctx.a.manager.user.id);
    expect(self.primaryCompany).toBe(ctx.a.company.id);
  });

  // issue 17: whether a manager gets completion e-mails (server/internal/mail/candidate_mails.go) is their own
  it("completionMailsOff: each user sets only their own, and fellow managers neither see nor set it", async () => {
    const owner = await signUp({ email: uniqueEmail("prefs-owner") });
    const company = await createCompany(owner.pb, "Prefs company");
    const fellow = await signUp({ email: uniqueEmail("prefs-fellow") });
    await ctx.su.collection("companies").update(company.id, { "managers+": fellow.user.id });
    const stranger = await signUp({ email: uniqueEmail("prefs-stranger") });
    for (const [who, pb] of [
      ["fellow", fellow.pb],
      ["stranger", stranger.pb],
      ["anonymous", anonymous()],
    ] as const) {
      const status = await statusOf(() => pb.collection("users").update(owner.user.id, { completionMailsOff: true }));
      expect({ who, status }).toEqual({ who, status: 404 });
    }
    expect((await ctx.su.collection("users").getOne(owner.user.id)).completionMailsOff).toBe(false);
    expect(await statusOf(() => owner.pb.collection("users").update(owner.user.id, { completionMailsOff: true }))).toBe(200);
    expect((await ctx.su.collection("users").getOne(owner.user.id)).completionMailsOff).toBe(true);
    const seen = await fellow.pb.collection("users").getOne(owner.user.id);
    expect(seen.email).toBe(owner.user.email);
    expect(seen.completionMailsOff).toBeUndefined();
    expect((await owner.pb.collection("users").getOne(owner.user.id)).completionMailsOff).toBe(true);
  });

  it("an unauthorised list answers with no items rather than an error", async () => {
    for (const name of ["companies", "jobs", "questions", "candidates", "answers", "video_answers", "users"]) {
      const list = await anonymous().collection(name).getList(1, 50);
      expect(list.items, name).toHaveLength(0);
    }
  });

  it("a candidate id of another job reads nothing of this company", async () => {
    const pb = asCandidate(ctx.b.candidate.id);
    expect(await statusOf(() => pb.collection("jobs").getOne(ctx.a.job.id))).toBe(404);
    expect(await statusOf(() => pb.collection("companies").getOne(ctx.a.company.id))).toBe(404);
    expect(await statusOf(() => pb.collection("questions").getOne(ctx.a.video.question.id))).toBe(404);
    expect(await statusOf(() => pb.collection("candidates").getOne(ctx.a.candidate.id))).toBe(404);
    expect(await statusOf(() => pb.collection("answers").getOne(ctx.videoAnswer.answer.id))).toBe(404);
    const answer = { id: randomId(), candidate: ctx.a.candidate.id, question: ctx.a.video.question.id };
    expect(await statusOf(() => pb.collection("answers").create(answer))).toBe(400);
  });

  it("a candidate may answer only questions of its own job", async () => {
    const foreign = await createQuestion(ctx.b.manager.pb, ctx.b.company.id, "text");
    const candidate = await freshCandidate();
    const pb = asCandidate(candidate.id);
    const status = await statusOf(() =>
      pb.collection("answers").create({ id: randomId(), candidate: candidate.id, question: foreign.question.id }),
    );
    expect(status).toBe(400);
  });
});

describe("protected answer videos", () => {
  async function fetchVideo(pb: PocketBase, token?: string, headers: Record<string, string> = {}) {
    const record = await ctx.su.collection("video_answers").getOne(ctx.videoAnswer.kind.id);
    const url = pb.files.getURL(record, record.file as string, token ? { token } : {});
    return (await fetch(url, { headers })).status;
  }

  it("a manager of the company fetches the video with a file token", async () => {
    const token = await ctx.a.manager.pb.files.getToken();
    expect(await fetchVideo(ctx.a.manager.pb, token)).toBe(200);
  });

  it.each(["otherManager", "noCompany", "invitee"] as const)("%s is refused even with their own file token", async (actor) => {
    const pb = clientFor(actor, ctx.a.candidate.id);
    const token = await pb.files.getToken();
    expect([403, 404]).toContain(await fetchVideo(pb, token));
  });

  it("an anonymous visitor is refused", async () => {
    expect([403, 404]).toContain(await fetchVideo(anonymous()));
  });

  it("the candidate who recorded it is refused (answers are not theirs to replay)", async () => {
    expect([403, 404]).toContain(await fetchVideo(anonymous(), undefined, { "X-Candidate-Key": (await keyOf(ctx.a.candidate.id))! }));
  });

  it("the manager without a token is refused", async () => {
    expect([403, 404]).toContain(await fetchVideo(ctx.a.manager.pb));
  });
});

// Read routes that answer for several collections at once (server/internal/<domain>): who may call them. What they
// return is checked in tests/interview-route.test.ts and tests/review-route.test.ts.
describe("the product's read routes", () => {
  const routes: { name: string; allowed: Actor[]; path: () => Promise<string> }[] = [
    // the candidate's own interview, at its link's key: its job, company and questions (the candidate's view rights)
    { name: "the interview of A's candidate", allowed: ["candidate"], path: async () => `/api/screenroom/interviews/${await keyOf(ctx.a.candidate.id)}` },
    // the review of A's candidate, by record id: managers of the company only (candidates list rule)
    { name: "the review of A's candidate", allowed: ["manager"], path: async () => `/api/screenroom/reviews/${ctx.a.candidate.id}` },
    // the pipeline's counts of A's job (issue 15): managers of the company only (jobs list rule)
    { name: "the pipeline counts of A's job", allowed: ["manager"], path: async () => `/api/screenroom/jobs/${ctx.a.job.id}/pipeline` },
    // the candidate counts of A's jobs for the jobs list (issue 16): managers of the company only
    { name: "the job counts of A's company", allowed: ["manager"], path: async () => `/api/screenroom/companies/${ctx.a.company.id}/job-counts` },
    // A's questions list (issue 20, server/internal/questions/questions_list.go): managers of the company only
    { name: "the questions list of A's company", allowed: ["manager"], path: async () => `/api/screenroom/companies/${ctx.a.company.id}/questions` },
    // A's jobs list (issue 20, server/internal/jobs/jobs_list.go): managers of the company only (jobs list rule)
    { name: "the jobs list of A's company", allowed: ["manager"], path: async () => `/api/screenroom/companies/${ctx.a.company.id}/jobs` },
    // a page of A's job's pipeline (issue 20, server/internal/pipeline/pipeline_page.go): managers of the company only
    { name: "a page of the pipeline of A's job", allowed: ["manager"], path: async () => `/api/screenroom/jobs/${ctx.a.job.id}/candidates?status=invited&q=a` },
    // the live share links of A's company (company settings, server/internal/review/share_links_routes.go): its
    // managers only
    { name: "the live share links of A's company", allowed: ["manager"], path: async () => `/api/screenroom/companies/${ctx.a.company.id}/share-links` },
  ];
  describe.each(routes)("$name", (route) => {
    it.each(ACTORS)("as %s", async (actor) => {
      const path = await route.path();
      const status = await statusOf(() => clientFor(actor, ctx.a.candidate.id).send(path, { method: "GET" }));
      expect(status).toBe(route.allowed.includes(actor) ? 200 : 404);
    });
  });
});

// The decision on a candidate (issue 15, server/internal/pipeline/decision.go): managers of the job's company
// only; anyone else gets 404 and nothing is stored.
describe("POST /api/screenroom/candidates/{id}/decision", () => {
  const allowed: Actor[] = ["manager"];
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = await freshCandidate();
    const status = await statusOf(() =>
      clientFor(actor, candidate.id).send(`/api/screenroom/candidates/${candidate.id}/decision`, { method: "POST", body: { decision: "advance" } }),
    );
    const stored = await ctx.su.collection("candidates").getOne(candidate.id);
    if (allowed.includes(actor)) {
      expect(status).toBe(200);
      expect(stored).toMatchObject({ decision: "advance", decisionBy: ctx.a.manager.user.id });
    } else {
      expect(status).toBe(404);
      expect(stored).toMatchObject({ decision: "", decisionBy: "" });
    }
  });
});

// Resending a candidate's invitation (issue 16, server/internal/candidates): managers of the job's company
// only; anyone else gets 404 and no e-mail goes out (the route decides before it mails).
describe("POST /api/screenroom/candidates/{id}/resend-invite", () => {
  const allowed: Actor[] = ["manager"];
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = await freshCandidate();
    const status = await statusOf(() =>
      clientFor(actor, candidate.id).send(`/api/screenroom/candidates/${candidate.id}/resend-invite`, { method: "POST" }),
    );
    expect(status).toBe(allowed.includes(actor) ? 200 : 404);
  });
});

// Removing a member (issue 16, decisions.md "Accounts and teams"): only the owner (A's manager, its creator) removes a
// co-manager; nobody, the owner included, removes the owner.
describe("removing a manager of A's company", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const fellow = await signUp({ email: uniqueEmail("matrix-fellow") });
    await ctx.su.collection("companies").update(ctx.a.company.id, { "managers+": fellow.user.id });
    const pb = clientFor(actor, ctx.a.candidate.id);
    const removeFellow = await statusOf(() => pb.collection("companies").update(ctx.a.company.id, { "managers-": fellow.user.id }));
    const removeOwner = await statusOf(() => pb.collection("companies").update(ctx.a.company.id, { "managers-": ctx.a.manager.user.id }));
    const managers = (await ctx.su.collection("companies").getOne(ctx.a.company.id)).managers as string[];
    expect(managers).toContain(ctx.a.manager.user.id);
    expect(removeOwner).not.toBe(200);
    if (actor === "manager") {
      expect(removeFellow).toBe(200);
      expect(managers).not.toContain(fellow.user.id);
    } else {
      expect(removeFellow).not.toBe(200);
      expect(managers).toContain(fellow.user.id);
      await ctx.su.collection("companies").update(ctx.a.company.id, { "managers-": fellow.user.id });
    }
  });
});

// A manager removed from A's company (security round three) reaches nothing of it any more: not the company, its jobs,
// candidates, share links or comments, and not the candidate's review through a share link they made before.
describe("a manager removed from A's company", () => {
  let removed: Awaited<ReturnType<typeof signUp>>;
  let link: CreatedLink;
  let comment: RecordModel;
  beforeAll(async () => {
    removed = await coManagerOf(ctx.a, "matrix-removed");
    link = await createLink(removed.pb, { candidate: ctx.a.candidate.id, expiresInDays: 30, includeFeedback: true });
    comment = await removed.pb.collection("comments").create({ candidate: ctx.a.candidate.id, author: removed.user.id, text: "Before my removal" });
    expect((await openShared(link.token)).status).toBe(200);
    await ctx.a.manager.pb.collection("companies").update(ctx.a.company.id, { "managers-": removed.user.id });
  });

  const reads: [string, () => string][] = [
    ["companies", () => ctx.a.company.id],
    ["jobs", () => ctx.a.job.id],
    ["candidates", () => ctx.a.candidate.id],
    ["share_links", () => link.link.id],
    ["comments", () => comment.id],
  ];
  it.each(reads)("lists and views no %s record of the company", async (collection, id) => {
    const listed = await removed.pb.collection(collection).getFullList({ fields: "id" });
    expect(listed.map((r) => r.id)).not.toContain(id());
    expect(await statusOf(() => removed.pb.collection(collection).getOne(id()))).toBe(404);
  });

  it("reads none of the company's routes, and revokes nothing", async () => {
    for (const path of [
      `/api/screenroom/reviews/${ctx.a.candidate.id}`,
      `/api/screenroom/companies/${ctx.a.company.id}/jobs`,
      `/api/screenroom/companies/${ctx.a.company.id}/share-links`,
    ]) {
      expect({ path, status: await statusOf(() => removed.pb.send(path, { method: "GET" })) }).toEqual({ path, status: 404 });
    }
    expect(await statusOf(() => revokeLink(removed.pb, link.link.id))).toBe(404);
    // the pipeline's bulk actions, by rows and by filter
    const decided = (await ctx.su.collection("candidates").getOne(ctx.a.candidate.id)).decision;
    for (const selection of [{ candidates: [ctx.a.candidate.id] }, { filter: {} }]) {
      expect(await statusOf(() => bulkAction(removed.pb, ctx.a.job.id, "decide", { ...selection, decision: "reject" }))).toBe(404);
      expect(await statusOf(() => bulkAction(removed.pb, ctx.a.job.id, "erase", selection))).toBe(404);
      expect(await statusOf(() => bulkExport(removed.pb, ctx.a.job.id, selection))).toBe(404);
    }
    expect((await ctx.su.collection("candidates").getOne(ctx.a.candidate.id)).decision).toBe(decided);
  });

  it("the share link they made answers as a revoked one, page and video", async () => {
    const page = await openShared(link.token);
    expect({ status: page.status, body: page.body }).toEqual({ status: 410, body: { status: 410, message: "This link was revoked.", data: {} } });
    const video = await fetch(`${pbUrl()}/api/screenroom/shared/${link.token}/videos/${ctx.videoAnswer.kind.id}`);
    expect(video.status).toBe(410);
  });
});

// Share links across the company's managers (security round three): every manager of the company lists every live
// link (the share_links list rule already lets them), the owner revokes any, a co-manager only their own.
describe("share links of A's co-managers", () => {
  let fellow: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    fellow = await coManagerOf(ctx.a, "matrix-share-fellow");
    other = await coManagerOf(ctx.a, "matrix-share-other");
  });
  afterAll(async () => {
    await ctx.su.collection("companies").update(ctx.a.company.id, { "managers-": [fellow.user.id, other.user.id] });
  });

  it("the owner and a co-manager list the co-manager's link: records API and the company's list", async () => {
    const made = await createLink(other.pb, { candidate: ctx.a.candidate.id });
    for (const pb of [ctx.a.manager.pb, fellow.pb]) {
      const listed = await pb.collection("share_links").getFullList({ filter: pb.filter("candidate = {:c}", { c: ctx.a.candidate.id }) });
      expect(listed.map((l) => l.id)).toContain(made.link.id);
      const company = await pb.send<{ items: { id: string; createdBy: { id: string } }[] }>(`/api/screenroom/companies/${ctx.a.company.id}/share-links`, {
        method: "GET",
      });
      expect(company.items.find((l) => l.id === made.link.id)?.createdBy.id).toBe(other.user.id);
    }
    // another company's manager lists none of them
    expect(await statusOf(() => ctx.b.manager.pb.send(`/api/screenroom/companies/${ctx.a.company.id}/share-links`, { method: "GET" }))).toBe(404);
  });

  it("a co-manager cannot revoke another manager's link (403, nothing written); the owner can", async () => {
    const made = await createLink(other.pb, { candidate: ctx.a.candidate.id });
    expect(await statusOf(() => revokeLink(fellow.pb, made.link.id))).toBe(403);
    expect((await ctx.su.collection("share_links").getOne(made.link.id)).revokedAt).toBe("");
    expect((await openShared(made.token)).status).toBe(200);
    const revoked = await revokeLink(ctx.a.manager.pb, made.link.id);
    expect(revoked.revokedBy).toBe(ctx.a.manager.user.id);
    expect((await openShared(made.token)).status).toBe(410);
  });

  it("a co-manager revokes their own link", async () => {
    const made = await createLink(fellow.pb, { candidate: ctx.a.candidate.id });
    const revoked = await revokeLink(fellow.pb, made.link.id);
    expect(revoked.revokedBy).toBe(fellow.user.id);
    expect((await openShared(made.token)).status).toBe(410);
  });

  it("the owner revokes a co-manager's link through the owner's own list of the company's live links", async () => {
    const made = await createLink(fellow.pb, { candidate: ctx.a.candidate.id });
    const list = () =>
      ctx.a.manager.pb.send<{ items: { id: string }[] }>(`/api/screenroom/companies/${ctx.a.company.id}/share-links`, { method: "GET" });
    expect((await list()).items.map((l) => l.id)).toContain(made.link.id);
    await revokeLink(ctx.a.manager.pb, made.link.id);
    expect((await list()).items.map((l) => l.id)).not.toContain(made.link.id);
  });
});

// Candidates' fields the server keeps (issue 15): the job's company's managers read the decision and the rating; the
// candidate reads its own record without them; nobody but a superuser writes any of them through the records API.
describe("candidates' server fields", () => {
  const MANAGERS_ONLY = ["decision", "decisionBy", "decisionAt", "averageRating", "ratingsCount", "extraTime", "extraTakes"];
  const PROGRESS = ["status", "answeredCount", "startedAt", "completedAt"];

  it.each(ACTORS)("are read as %s may read them", async (actor) => {
    const status = await statusOf(() => clientFor(actor, ctx.a.candidate.id).collection("candidates").getOne(ctx.a.candidate.id));
    if (actor === "manager" || actor === "candidate") {
      expect(status).toBe(200);
      const seen = await clientFor(actor, ctx.a.candidate.id).collection("candidates").getOne(ctx.a.candidate.id);
      for (const field of PROGRESS) expect(seen, field).toHaveProperty(field);
      for (const field of MANAGERS_ONLY) expect(Object.keys(seen).includes(field), field).toBe(actor === "manager");
    } else {
      expect(status).toBe(404);
    }
  });

  it.each(ACTORS)("are written by nobody through the records API, as %s", async (actor) => {
    const candidate = await freshCandidate();
    const pb = clientFor(actor, candidate.id);
    const before = await ctx.su.collection("candidates").getOne(candidate.id);
    const stamp = new Date(Date.now() + 60_000).toISOString();
    const serverOnly = [{ withdrawnAt: stamp }, { remindedEarlyAt: stamp }, { remindedLateAt: stamp }, { completionMailedAt: stamp }];
    for (const change of [{ decision: "advance" }, { averageRating: 5 }, { status: "completed" }, { answeredCount: 2 }, ...serverOnly]) {
      expect([400, 404]).toContain(await statusOf(() => pb.collection("candidates").update(candidate.id, change)));
    }
    const created = await statusOf(() => pb.collection("candidates").create({ job: ctx.a.job.id, email: uniqueEmail("forged-status"), status: "completed" }));
    expect([400, 403]).toContain(created);
    expect((await ctx.su.collection("candidates").getOne(candidate.id)).updated).toBe(before.updated);
  });
});

// Issue 17 points 5-8: what a manager grants or closes (deadline, withdrawn, extraTime, extraTakes) is written by the
// job's company's managers only, through the records API; the candidate itself, another company's manager and
// everyone else change nothing (tests/deadlines-time.test.ts: the effects; tests/attacks/deadlines-time.test.ts).
describe("candidates' deadline, withdrawal and grants", () => {
  const changes = () => [
    { deadline: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().replace("T", " ") },
    { withdrawn: true },
    { extraTime: "unlimited" },
    { extraTakes: 10 },
  ];
  it.each(ACTORS)("are written as %s may write them", async (actor) => {
    for (const change of changes()) {
      const candidate = await freshCandidate();
      const before = await ctx.su.collection("candidates").getOne(candidate.id);
      const status = await statusOf(() => clientFor(actor, candidate.id).collection("candidates").update(candidate.id, change));
      const after = await ctx.su.collection("candidates").getOne(candidate.id);
      if (actor === "manager") {
        expect({ change, status }).toEqual({ change, status: 200 });
        expect(after).toMatchObject(change);
      } else {
        expect({ change, status }).toEqual({ change, status: 404 });
        expect(after.updated).toBe(before.updated);
      }
    }
  });
});

// Opening a question (server/internal/interview/interview_routes.go, issue 17): only the candidate, at its own key,
// records it; anyone else gets 404 and nothing is recorded.
describe("POST /api/screenroom/interviews/{key}/questions/{questionId}/open", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const candidate = (await freshCandidate()).id;
    const path = `/api/screenroom/interviews/${await keyOf(candidate)}/questions/${ctx.a.text.question.id}/open`;
    const status = await statusOf(() => clientFor(actor, candidate).send(path, { method: "POST" }));
    expect(status).toBe(actor === "candidate" ? 200 : 404);
    const rows = await ctx.su
      .collection("question_progress")
      .getFullList({ filter: ctx.su.filter("candidate = {:c} && question = {:q} && openedAt != ''", { c: candidate, q: ctx.a.text.question.id }) });
    expect(rows.length).toBe(actor === "candidate" ? 1 : 0);
  });
});

// Issue 16 point 3: deleting what has answers takes the manager's confirmation (`?deleteAnswers=true`), archiving is an
// update. Both are for the job's company's managers only; the answers' snapshot of their question is the server's.
describe("deleting with answers, and archiving (issue 16)", () => {
  async function answeredJob() {
    const job = await ctx.a.manager.pb.collection("jobs").create({
      company: ctx.a.company.id,
      title: "Answered job",
      description: "Do things",
      location: "Lisbon",
      questions: [ctx.a.text.question.id],
    });
    const candidate = await ctx.a.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("answered") });
    await consent(candidate.id);
    await answerText(candidate.id, ctx.a.text.question.id);
    return { job: job.id, candidate: candidate.id };
  }

  it.each(ACTORS)("a confirmed delete of a candidate with answers, as %s", async (actor) => {
    const { candidate } = await answeredJob();
    const status = await statusOf(() =>
      clientFor(actor, candidate).collection("candidates").delete(candidate, { query: { deleteAnswers: "true" } }),
    );
    const still = await statusOf(() => ctx.su.collection("candidates").getOne(candidate));
    if (actor === "manager") {
      expect(status).toBe(200);
      expect(still).toBe(404);
    } else {
      expect([403, 404]).toContain(status);
      expect(still).toBe(200);
    }
  });

  it.each(ACTORS)("a confirmed delete of a job with answers, as %s", async (actor) => {
    const { job, candidate } = await answeredJob();
    const status = await statusOf(() => clientFor(actor, candidate).collection("jobs").delete(job, { query: { deleteAnswers: "true" } }));
    const still = await statusOf(() => ctx.su.collection("jobs").getOne(job));
    if (actor === "manager") {
      expect(status).toBe(200);
      expect(still).toBe(404);
    } else {
      expect([403, 404]).toContain(status);
      expect(still).toBe(200);
    }
  });

  it.each(ACTORS)("archiving a question and a job, as %s", async (actor) => {
    const { job, candidate } = await answeredJob();
    const question = (await createQuestion(ctx.a.manager.pb, ctx.a.company.id, "text")).question.id;
    const pb = clientFor(actor, candidate);
    const statuses = [
      await statusOf(() => pb.collection("questions").update(question, { archived: true })),
      await statusOf(() => pb.collection("jobs").update(job, { archived: true })),
    ];
    const stored = [(await ctx.su.collection("questions").getOne(question)).archived, (await ctx.su.collection("jobs").getOne(job)).archived];
    if (actor === "manager") {
      expect(statuses).toEqual([200, 200]);
      expect(stored).toEqual([true, true]);
    } else {
      for (const status of statuses) expect([400, 403, 404]).toContain(status);
      expect(stored).toEqual([false, false]);
    }
  });
});
