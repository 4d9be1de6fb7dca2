// The pipeline's bulk actions (server/internal/bulk): each candidate is acted on by the single route's own function,
// so a bulk action does, and refuses, exactly what one at a time does; the selection is the rows chosen or all that
// match the pipeline's filter, resolved on the server within the route's job. What a stranger can and cannot do is in
// tests/attacks/bulk-actions.test.ts and the access matrix; the limits in tests/attacks/bulk-actions.test.ts too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerText, answerVideo, createJob, errorOf, type OwnServer, randomId, superuser, uniqueEmail, useOwnServer, world } from "./helpers";
import { bulkAction, bulkExport, toldOf } from "./bulk-support";

type World = Awaited<ReturnType<typeof world>>;

/** `count` new candidates of w's job whose addresses share `tag`, oldest first. */
async function candidatesOf(w: World, tag: string, count: number) {
  const made: { id: string; email: string }[] = [];
  for (let i = 0; i < count; i++) {
    const c = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail(`${tag}-${i}`) });
    made.push({ id: c.id, email: c.email as string });
  }
  return made;
}

const decisionOf = async (id: string) => {
  const su = await superuser();
  const c = await su.collection("candidates").getOne(id);
  return { decision: c.decision as string, decisionBy: c.decisionBy as string, decisionAt: c.decisionAt as string };
};

const queuedTo = async (email: string) => {
  const su = await superuser();
  return (await su.collection("mail_queue").getList(1, 1, { filter: su.filter("to = {:to}", { to: email }) })).totalItems;
};

describe("bulk decide", () => {
  it("decides the chosen rows as the decision route does, streams a line per candidate, and a repeat changes nothing", async () => {
    const w = await world("bulk-decide");
    const [one, two, untouched] = await candidatesOf(w, "bulk-decide", 3);
    const first = await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [one!.id, two!.id, one!.id], decision: "advance" });
    expect(first.contentType).toMatch(/^application\/x-ndjson/);
    expect(first.total).toBe(2);
    expect(first.rows.map((r) => [r.id, r.email, r.status])).toEqual([
      [one!.id, one!.email, "done"],
      [two!.id, two!.email, "done"],
    ]);
    expect(first.end).toMatchObject({ done: 2, skipped: 0, failed: 0 });
    const decided = await decisionOf(one!.id);
    expect(decided).toMatchObject({ decision: "advance", decisionBy: w.manager.user.id });
    expect(decided.decisionAt).not.toBe("");
    expect(await decisionOf(untouched!.id)).toEqual({ decision: "", decisionBy: "", decisionAt: "" });

    // the decision it already has: skipped, who and when kept (the single route's rule)
    const again = await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [one!.id], decision: "advance" });
    expect(again.rows.map(toldOf)).toEqual([{ status: "skipped", code: "unchanged", message: "It already was so: nothing changed." }]);
    expect(await decisionOf(one!.id)).toEqual(decided);

    // "" clears, as the single route does
    await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [two!.id], decision: "" });
    expect(await decisionOf(two!.id)).toEqual({ decision: "", decisionBy: "", decisionAt: "" });
  });

  it("refuses a value that is no decision on its field, before any candidate", async () => {
    const w = await world("bulk-decide-bad");
    const [one] = await candidatesOf(w, "bulk-decide-bad", 1);
    for (const decision of ["hire", 1, null, undefined]) {
      const err = await errorOf(() => bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [one!.id], decision }));
      expect(err.status).toBe(400);
      expect(err.response.data.decision).toMatchObject({ code: "validation_invalid_value", message: "Choose advance, hold, reject, or no decision." });
    }
    expect((await decisionOf(one!.id)).decision).toBe("");
  });

  it("acts on all that match the pipeline's filter, in this job only", async () => {
    const w = await world("bulk-filter");
    const tag = `tag${randomId().slice(0, 6)}`;
    const matching = await candidatesOf(w, tag, 3);
    const [other] = await candidatesOf(w, "bulk-filter-other", 1);
    await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [matching[0]!.id], decision: "hold" });
    // another job of the same company, whose candidates match the same search
    const job2 = await createJob(w.manager.pb, w.company.id, [w.text.question.id]);
    const elsewhere = await w.manager.pb.collection("candidates").create({ job: job2.id, email: uniqueEmail(tag) });

    // the decision filter "none": the two of them not decided yet
    const answer = await bulkAction(w.manager.pb, w.job.id, "decide", { filter: { q: tag, decision: "none", status: "" }, decision: "reject" });
    expect(answer.rows.map((r) => r.id).sort()).toEqual([matching[1]!.id, matching[2]!.id].sort());
    expect((await decisionOf(matching[0]!.id)).decision).toBe("hold");
    expect((await decisionOf(matching[1]!.id)).decision).toBe("reject");
    expect((await decisionOf(other!.id)).decision).toBe("");
    expect((await decisionOf(elsewhere.id)).decision).toBe("");

    // a search is literal: % matches nobody here
    expect(await errorOf(() => bulkAction(w.manager.pb, w.job.id, "decide", { filter: { q: "%" }, decision: "hold" }))).toMatchObject({
      status: 400,
      response: { data: { filter: { code: "validation_no_match", message: "No candidate matches this filter." } } },
    });
  });

  it("says on its field what is wrong with a selection", async () => {
    const w = await world("bulk-selection");
    const cases: [unknown, string, string][] = [
      [{}, "candidates", "validation_required"],
      [{ candidates: [] }, "candidates", "validation_required"],
      [{ candidates: "abc" }, "candidates", "validation_invalid_value"],
      [{ candidates: [42] }, "candidates", "validation_invalid_value"],
      [{ candidates: ["a"], filter: {} }, "candidates", "validation_required"],
      [{ filter: { status: "hired" } }, "status", "validation_invalid_value"],
      [{ filter: { decision: "maybe" } }, "decision", "validation_invalid_value"],
      [{ filter: { q: "x".repeat(201) } }, "q", "validation_length_out_of_range"],
      [{ filter: { sort: "email" } }, "filter", "validation_unknown_field"],
      [{ filter: "status=invited" }, "filter", "validation_invalid_value"],
    ];
    for (const [selection, field, code] of cases) {
      const err = await errorOf(() => bulkAction(w.manager.pb, w.job.id, "decide", { ...(selection as object), decision: "hold" }));
      expect({ selection, status: err.status, code: err.response.data[field]?.code }).toEqual({ selection, status: 400, code });
    }
  });
});

// The cap needs 1,001 candidates, whose 1,001 invitations would keep the shared server's mail queue busy for a minute
// on a loaded machine and hold up the e-mails the next suites wait for: on its own server, with the queue held.
describe("bulk decide, at the cap", () => {
  let server: OwnServer | undefined;
  beforeAll(async () => {
    server = await useOwnServer({ MAIL_QUEUE_HOLD: "1" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("takes at most 1,000 candidates: ids and a filter alike are refused past it, with how many it was", async () => {
    const w = await world("bulk-thousand");
    const ids = Array.from({ length: 1001 }, () => randomId());
    const byIds = await errorOf(() => bulkAction(w.manager.pb, w.job.id, "decide", { candidates: ids, decision: "hold" }));
    expect(byIds.status).toBe(400);
    expect(byIds.response.data.candidates).toMatchObject({
      code: "validation_bulk_too_many",
      message: "A bulk action takes at most 1,000 candidates; this is 1,001. Choose fewer, or narrow the filter.",
    });

    // 1,001 candidates in the job (two CSV imports), all matching the empty filter
    for (const [start, end] of [
      [0, 1000],
      [1000, 1001],
    ] as const) {
      const rows = Array.from({ length: end - start }, (_, i) => ({ email: uniqueEmail(`bulk-thousand-${start + i}`) }));
      await w.manager.pb.send(`/api/screenroom/jobs/${w.job.id}/invites/bulk`, { method: "POST", body: { importId: `thousand-${randomId()}`, rows } });
    }
    const byFilter = await errorOf(() => bulkAction(w.manager.pb, w.job.id, "decide", { filter: {}, decision: "hold" }));
    expect(byFilter.status).toBe(400);
    expect(byFilter.response.data.filter).toMatchObject({ code: "validation_bulk_too_many" });
    expect(byFilter.response.data.filter.message).toContain("this is 1,002");
    const su = await superuser();
    expect((await su.collection("candidates").getList(1, 1, { filter: su.filter("job = {:j} && decision != ''", { j: w.job.id }) })).totalItems).toBe(0);
  });
});

describe("bulk resend", () => {
  it("mails those the single route would, and says of the others what it says", async () => {
    const w = await world("bulk-resend");
    const [fresh, withdrawn, late] = await candidatesOf(w, "bulk-resend", 3);
    const su = await superuser();
    await su.collection("candidates").update(withdrawn!.id, { withdrawn: true });
    await su.collection("candidates").update(late!.id, { deadline: "2001-01-01 00:00:00.000Z" });
    // completed: both questions answered
    await answerVideo(w.candidate.id, w.video.question.id);
    await answerText(w.candidate.id, w.text.question.id);
    const before = await queuedTo(fresh!.email);

    const answer = await bulkAction(w.manager.pb, w.job.id, "resend-invite", { candidates: [fresh!.id, withdrawn!.id, late!.id, w.candidate.id] });
    expect(answer.rows.map((r) => [r.id, r.status, r.code, r.message])).toEqual([
      [fresh!.id, "done", undefined, undefined],
      [withdrawn!.id, "skipped", "validation_withdrawn", "This invitation was withdrawn. Restore it before sending it again."],
      [late!.id, "skipped", "validation_deadline_passed", "The deadline has passed. Extend it before sending the invitation again."],
      [w.candidate.id, "skipped", "validation_completed", "This candidate has already sent their answers: there is no invitation to resend."],
    ]);
    expect(answer.end).toMatchObject({ done: 1, skipped: 3, failed: 0 });
    expect(await queuedTo(fresh!.email)).toBe(before + 1);
    expect(await queuedTo(withdrawn!.email)).toBe(1);
  });

  it("resends nothing for a closed job", async () => {
    const w = await world("bulk-resend-closed");
    const [one] = await candidatesOf(w, "bulk-resend-closed", 1);
    await w.manager.pb.send(`/api/screenroom/jobs/${w.job.id}/close`, { method: "POST" });
    const answer = await bulkAction(w.manager.pb, w.job.id, "resend-invite", { candidates: [one!.id] });
    expect(answer.rows[0]).toMatchObject({ status: "skipped", message: "This job is closed. Reopen it to invite candidates." });
    expect(await queuedTo(one!.email)).toBe(1);
  });
});

describe("bulk decision message", () => {
  it("sends the message to those the send route would, once each, and says of the others what it says", async () => {
    const w = await world("bulk-message");
    const [advanced, undecided, withdrawn, rejected] = await candidatesOf(w, "bulk-message", 4);
    const su = await superuser();
    await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [advanced!.id, withdrawn!.id], decision: "advance" });
    await bulkAction(w.manager.pb, w.job.id, "decide", { candidates: [rejected!.id], decision: "reject" });
    await su.collection("candidates").update(withdrawn!.id, { withdrawn: true });

    const answer = await bulkAction(w.manager.pb, w.job.id, "message", { candidates: [advanced!.id, undecided!.id, withdrawn!.id, rejected!.id], kind: "advance" });
    expect(answer.rows.map((r) => [r.id, r.status, r.code])).toEqual([
      [advanced!.id, "done", undefined],
      [undecided!.id, "skipped", "validation_decision_mismatch"],
      [withdrawn!.id, "skipped", "validation_withdrawn"],
      [rejected!.id, "skipped", "validation_decision_mismatch"],
    ]);
    const sent = await su.collection("decision_messages").getFullList({ filter: su.filter("candidate.job = {:j}", { j: w.job.id }) });
    expect(sent.map((m) => [m.candidate, m.kind, m.sentBy])).toEqual([[advanced!.id, "advance", w.manager.user.id]]);
    expect(await queuedTo(advanced!.email)).toBe(2);

    // a repeat sends nobody twice
    const again = await bulkAction(w.manager.pb, w.job.id, "message", { candidates: [advanced!.id], kind: "advance" });
    expect(again.rows.map((r) => [r.status, r.code])).toEqual([["skipped", "validation_already_sent"]]);
    expect(await queuedTo(advanced!.email)).toBe(2);
  });

  it("refuses a kind that is none, on its field, before any candidate", async () => {
    const w = await world("bulk-message-kind");
    for (const kind of ["hold", "", undefined, 3]) {
      const err = await errorOf(() => bulkAction(w.manager.pb, w.job.id, "message", { candidates: [w.candidate.id], kind }));
      expect([err.status, err.response.data.kind?.code]).toEqual([400, "validation_invalid_value"]);
    }
  });
});

describe("bulk erase", () => {
  it("erases each candidate as the erase route does, each with its own audit entry by the manager", async () => {
    const w = await world("bulk-erase");
    const [one, kept] = await candidatesOf(w, "bulk-erase", 2);
    await answerVideo(w.candidate.id, w.video.question.id);
    const answer = await bulkAction(w.manager.pb, w.job.id, "erase", { candidates: [one!.id, w.candidate.id] });
    expect(answer.end).toMatchObject({ done: 2, skipped: 0, failed: 0 });
    const su = await superuser();
    for (const id of [one!.id, w.candidate.id]) {
      expect(await errorOf(() => su.collection("candidates").getOne(id))).toMatchObject({ status: 404 });
      const audit = await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = {:c}", { c: id }) });
      expect(audit.map((e) => [e.action, e.actorKind, e.actor, e.company])).toEqual([["erase", "manager", w.manager.user.id, w.company.id]]);
    }
    expect((await su.collection("answers").getFullList({ filter: su.filter("candidate = {:c}", { c: w.candidate.id }) })).length).toBe(0);
    expect((await su.collection("candidates").getOne(kept!.id)).id).toBe(kept!.id);

    // erased already: told as not found, nothing logged twice
    const again = await bulkAction(w.manager.pb, w.job.id, "erase", { candidates: [one!.id] });
    expect(again.rows.map(toldOf)).toEqual([{ status: "skipped", code: "not_found", message: "This candidate is no longer in this job." }]);
    expect((await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = {:c}", { c: one!.id }) })).length).toBe(1);
  });
});

describe("bulk export", () => {
  it("answers one zip with a folder per candidate, an index and a README, and logs each export", async () => {
    const w = await world("bulk-export");
    const [one] = await candidatesOf(w, "bulk-export", 1);
    await answerText(w.candidate.id, w.text.question.id, "Exported words");
    const stranger = randomId();
    const { zip, exported, notFound, disposition } = await bulkExport(w.manager.pb, w.job.id, { candidates: [w.candidate.id, one!.id, stranger] });
    expect({ exported, notFound }).toEqual({ exported: 2, notFound: 1 });
    expect(disposition).toBe(`attachment; filename="candidates-${w.job.id}.zip"`);
    const index = JSON.parse(zip.get("candidates.json")!.toString()) as { folder: string; id: string; email: string }[];
    expect(index.map((c) => [c.folder, c.id, c.email])).toEqual([
      [`0001-${w.candidate.id}/`, w.candidate.id, w.candidate.email],
      [`0002-${one!.id}/`, one!.id, one!.email],
    ]);
    expect(zip.get("README.txt")!.toString()).toContain("several candidates' data");
    const answers = JSON.parse(zip.get(`0001-${w.candidate.id}/answers.json`)!.toString()) as { text?: string }[];
    expect(JSON.stringify(answers)).toContain("Exported words");
    expect(JSON.parse(zip.get(`0002-${one!.id}/candidate.json`)!.toString())).toMatchObject({ id: one!.id, email: one!.email });
    expect([...zip.keys()].some((name) => name.includes(stranger))).toBe(false);

    const su = await superuser();
    for (const id of [w.candidate.id, one!.id]) {
      const audit = await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = {:c}", { c: id }) });
      expect(audit.map((e) => [e.action, e.actor])).toEqual([["export", w.manager.user.id]]);
    }
  });

  it("refuses a selection that finds nobody in the job", async () => {
    const w = await world("bulk-export-none");
    const err = await errorOf(() => bulkExport(w.manager.pb, w.job.id, { candidates: [randomId()] }));
    expect(err.status).toBe(400);
    expect(err.response.data.candidates).toMatchObject({ code: "not_found" });
  });
});
