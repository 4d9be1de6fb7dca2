// Issue 17 point 5, as an attacker: the stamps that make each reminder and completion e-mail go once
// (remindedEarlyAt, remindedLateAt, completionMailedAt; server/internal/mail/candidate_mails.go) are the
// server's. A manager clearing one would mail a candidate again; setting one would silence it. Neither a manager
// nor the candidate writes them through the records or batch API, and only a superuser runs the cron.
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidate, errorOf, pbUrl, signUp, statusOf, superuser, uniqueEmail, world } from "../helpers";

const STAMPS = ["remindedEarlyAt", "remindedLateAt", "completionMailedAt"] as const;
const AT = "2026-11-24 12:00:00.000Z";

let w: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  w = await world("stamps");
});

describe("the mail stamps", () => {
  it.each(STAMPS)("%s: a manager can neither set it on a new candidate nor set or clear it later", async (field) => {
    const created = await errorOf(() =>
      w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("stamp"), [field]: AT }),
    );
    expect(created.status).toBe(400);
    expect(created.response.data[field]?.code).toBe("validation_read_only");

    const su = await superuser();
    const candidate = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail("stamp") });
    const set = await errorOf(() => w.manager.pb.collection("candidates").update(candidate.id, { [field]: AT }));
    expect(set.status).toBe(400);
    expect(set.response.data[field]?.code).toBe("validation_read_only");
    expect((await su.collection("candidates").getOne(candidate.id))[field]).toBe("");

    // stamped (as the server does), a manager cannot clear it, alone or along with an allowed change
    await su.collection("candidates").update(candidate.id, { [field]: AT });
    for (const body of [{ [field]: "" }, { [field]: "", extraTakes: 1 }]) {
      const cleared = await errorOf(() => w.manager.pb.collection("candidates").update(candidate.id, body));
      expect(cleared.status).toBe(400);
    }
    // the batch API runs the same request hooks per item
    const batch = w.manager.pb.createBatch();
    batch.collection("candidates").update(candidate.id, { [field]: "" });
    expect(await statusOf(() => batch.send())).toBe(400);
    const stored = await su.collection("candidates").getOne(candidate.id);
    expect(stored[field]).toBe(AT);
    expect(stored.extraTakes).toBe(0);
  });

  it("the candidate cannot write its own stamps (its key reads its record, never updates it)", async () => {
    const su = await superuser();
    const candidate = w.candidate.id;
    for (const field of STAMPS) {
      expect(await statusOf(() => asCandidate(candidate).collection("candidates").update(candidate, { [field]: AT }))).toBe(404);
    }
    const stored = await su.collection("candidates").getOne(candidate);
    for (const field of STAMPS) expect(stored[field]).toBe("");
  });
});

describe("the reminders cron", () => {
  it("is run and listed by superusers only", async () => {
    const manager = w.manager.pb;
    const other = (await signUp({ email: uniqueEmail("cron") })).pb;
    for (const [who, token] of [
      ["anonymous", ""],
      ["manager", manager.authStore.token],
      ["another user", other.authStore.token],
    ] as const) {
      const headers = token ? { Authorization: token } : undefined;
      const run = await fetch(`${pbUrl()}/api/crons/screenroom_reminders`, { method: "POST", headers });
      const list = await fetch(`${pbUrl()}/api/crons`, { headers });
      expect({ who, run: run.status, list: list.status }).toEqual({ who, run: token ? 403 : 401, list: token ? 403 : 401 });
    }
    expect(await statusOf(() => anonymous().crons.run("screenroom_reminders"))).toBe(401);
    // a superuser sees it (running it is tests/candidate-mails.test.ts, on a server of its own: a run here could
    // remind the shared server's candidates of other suites)
    expect((await (await superuser()).crons.getFullList()).map((job) => job.id)).toContain("screenroom_reminders");
  });
});
