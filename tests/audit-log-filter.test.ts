// The audit log filtered on the server and downloaded as CSV (server/internal/lifecycle/audit_log_filter.go):
// GET /api/screenroom/companies/{id}/audit-log and /audit-log.csv, by who acted, the action and a range of days in
// the company's time zone. The entries are written the only ways they are: a manager's export, erasure and delete,
// and a candidate's own withdrawal, by the company's owner and by a co-manager; another company's export must never
// show. A page is compared with what the records API answers for the same rows.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidateKey, errorOf, keyOf, pbUrl, signUp, uniqueEmail, world } from "./helpers";
import { acceptInvite } from "./support";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let fellow: Awaited<ReturnType<typeof signUp>>;
/** A's entries as the records API lists them, newest first, the actor expanded */
let all: RecordModel[];

interface Page {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: RecordModel[];
}

const logPath = (company: string, query = "") => `/api/screenroom/companies/${company}/audit-log${query ? `?${query}` : ""}`;
const pageOf = (pb: PocketBase, query = "", company = a.company.id) => pb.send<Page>(logPath(company, query), { method: "GET" });

async function csvOf(pb: PocketBase, query = "", company = a.company.id) {
  const res = await fetch(`${pbUrl()}/api/screenroom/companies/${company}/audit-log.csv${query ? `?${query}` : ""}`, {
    headers: pb.authStore.token ? { Authorization: pb.authStore.token } : {},
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function freshCandidate(label: string) {
  return a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail(label) });
}

async function exportAs(pb: PocketBase, candidate: string) {
  const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${candidate}/export`, { headers: { Authorization: pb.authStore.token } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
}

/** The day (YYYY-MM-DD) of an instant in an IANA time zone. */
const dayIn = (iso: string, zone: string) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(iso));
const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const ids = (records: { id: string }[]) => records.map((r) => r.id);

beforeAll(async () => {
  a = await world("audit-filter");
  b = await world("audit-filter-other");
  fellow = await signUp({ email: uniqueEmail("audit-fellow"), firstName: "=Zoë", lastName: "Hopper" });
  const invitation = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: fellow.user.email });
  expect((await acceptInvite(invitation.id, fellow.pb.authStore.token)).status).toBe(200);

  await exportAs(a.manager.pb, (await freshCandidate("exported-by-owner")).id);
  await exportAs(fellow.pb, (await freshCandidate("exported-by-fellow")).id);
  await a.manager.pb.send(`/api/screenroom/candidates/${(await freshCandidate("erased")).id}/erase`, { method: "POST" });
  await fellow.pb.collection("candidates").delete((await freshCandidate("deleted")).id);
  const leaving = await freshCandidate("withdrew");
  const key = (await keyOf(leaving.id))!;
  await asCandidateKey(key).send(`/api/screenroom/interviews/${encodeURIComponent(key)}/withdraw`, { method: "POST" });
  await exportAs(b.manager.pb, b.candidate.id);

  all = await a.manager.pb.collection("audit_log").getFullList({ filter: a.manager.pb.filter("company = {:c}", { c: a.company.id }), sort: "-created,-id", expand: "actor" });
  expect(all.map((e) => [e.action, e.actorKind, e.actor])).toEqual([
    ["withdraw", "candidate", ""],
    ["delete", "manager", fellow.user.id],
    ["erase", "manager", a.manager.user.id],
    ["export", "manager", fellow.user.id],
    ["export", "manager", a.manager.user.id],
  ]);
});

describe("a page of the log", () => {
  it("is what the records API answers for the same rows, the acting manager expanded", async () => {
    const page = await pageOf(a.manager.pb);
    expect({ ...page, items: undefined }).toEqual({ page: 1, perPage: 50, totalItems: 5, totalPages: 1, items: undefined });
    expect(page.items).toEqual(JSON.parse(JSON.stringify(all)));
    expect(page.items[1]!.expand?.actor).toMatchObject({ id: fellow.user.id, firstName: "=Zoë" });
  });

  it("filters by who acted: a manager by id, or a kind", async () => {
    const cases: [string, RecordModel[]][] = [
      [`actor=${fellow.user.id}`, all.filter((e) => e.actor === fellow.user.id)],
      [`actor=${a.manager.user.id}`, all.filter((e) => e.actor === a.manager.user.id)],
      ["actor=manager", all.filter((e) => e.actorKind === "manager")],
      ["actor=candidate", all.filter((e) => e.action === "withdraw")],
      ["actor=retention", []],
      ["actor=system", []],
      [`actor=${b.manager.user.id}`, []],
    ];
    for (const [query, expected] of cases) {
      expect({ query, ids: ids((await pageOf(a.manager.pb, query)).items) }).toEqual({ query, ids: ids(expected) });
    }
    expect(ids(all.filter((e) => e.actor === fellow.user.id))).toHaveLength(2);
  });

  it("filters by action, and by action and actor together", async () => {
    expect(ids((await pageOf(a.manager.pb, "action=export")).items)).toEqual(ids(all.filter((e) => e.action === "export")));
    expect(ids((await pageOf(a.manager.pb, `action=export&actor=${fellow.user.id}`)).items)).toEqual([all[3]!.id]);
    expect((await pageOf(a.manager.pb, "action=retention_erase")).items).toEqual([]);
  });

  it("filters by days, both included, in the company's time zone", async () => {
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"]) {
      await a.manager.pb.collection("companies").update(a.company.id, { timeZone: zone });
      const days = all.map((e) => dayIn(e.created, zone));
      const first = days.reduce((x, y) => (x < y ? x : y));
      const last = days.reduce((x, y) => (x > y ? x : y));
      for (let offset = -1; offset <= 1; offset++) {
        const day = shiftDay(first, offset);
        const expected = all.filter((_, i) => days[i] === day);
        expect({ zone, day, ids: ids((await pageOf(a.manager.pb, `from=${day}&to=${day}`)).items) }).toEqual({ zone, day, ids: ids(expected) });
      }
      expect(ids((await pageOf(a.manager.pb, `from=${first}&to=${last}`)).items)).toEqual(ids(all));
      expect(ids((await pageOf(a.manager.pb, `from=${first}`)).items)).toEqual(ids(all));
      expect((await pageOf(a.manager.pb, `from=${shiftDay(last, 1)}`)).items).toEqual([]);
      expect((await pageOf(a.manager.pb, `to=${shiftDay(first, -1)}`)).items).toEqual([]);
    }
    // the same instant on different days: UTC-11 and UTC+14 never share a calendar day
    expect(dayIn(all[0]!.created, "Pacific/Kiritimati")).not.toBe(dayIn(all[0]!.created, "Pacific/Pago_Pago"));
    await a.manager.pb.collection("companies").update(a.company.id, { timeZone: "" });
  });

  it("pages through the matches", async () => {
    const pages = [1, 2, 3].map((n) => pageOf(a.manager.pb, `perPage=2&page=${n}`));
    const [one, two, three] = await Promise.all(pages);
    expect([one!.totalItems, one!.totalPages, one!.items.length, two!.items.length, three!.items.length]).toEqual([5, 3, 2, 2, 1]);
    expect(ids([...one!.items, ...two!.items, ...three!.items])).toEqual(ids(all));
    expect((await pageOf(a.manager.pb, "perPage=2&page=4")).items).toEqual([]);
  });

  it("refuses a value that is not one the filter knows, on its field", async () => {
    const cases: [string, string, string][] = [
      ["action=nope", "action", "Choose an action from the list."],
      ["actor=someone", "actor", "Choose who acted from the list."],
      ["from=2024-13-01", "from", "Enter a date as YYYY-MM-DD."],
      ["to=2024-1-1", "to", "Enter a date as YYYY-MM-DD."],
      ["from=2024-02-30", "from", "Enter a date as YYYY-MM-DD."],
      ["from=2024-05-02&to=2024-05-01", "to", "The last day must not be before the first."],
      ["action=export&action=erase", "action", "Give one value."],
      ["perPage=0", "perPage", "Enter a whole number from 1 to 200."],
      ["perPage=201", "perPage", "Enter a whole number from 1 to 200."],
      ["page=abc", "page", "Enter a whole number from 1 to 100000."],
    ];
    for (const [query, field, message] of cases) {
      const err = await errorOf(() => pageOf(a.manager.pb, query));
      expect({ query, status: err.status, fields: Object.keys(err.response.data), message: err.response.data[field]?.message }).toEqual({
        query,
        status: 400,
        fields: [field],
        message,
      });
      const csv = await csvOf(a.manager.pb, query);
      if (field === "page" || field === "perPage") continue; // the file has every match: no paging
      expect({ query, status: csv.res.status }).toEqual({ query, status: 400 });
    }
  });
});

describe("the CSV download", () => {
  it("is UTF-8 with a byte-order mark, one line (CRLF) per match, newest first", async () => {
    const { res, bytes } = await csvOf(a.manager.pb);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.slice(0, -2).split("\r\n");
    expect(lines[0]).toBe("Time (ISO 8601),Time (UTC),Action,Actor kind,Actor id,Actor name,Actor e-mail,Candidate id");
    const owner = `${a.manager.user.firstName} ${a.manager.user.lastName}`;
    const timeOf = (e: RecordModel) => `${e.created.replace(" ", "T")},${e.created.slice(0, 19)}`;
    expect(lines.slice(1)).toEqual([
      `${timeOf(all[0]!)},withdraw,candidate,,,,${all[0]!.candidateId}`,
      // a name a spreadsheet would run as a formula is disarmed
      `${timeOf(all[1]!)},delete,manager,${fellow.user.id},'=Zoë Hopper,${fellow.user.email},${all[1]!.candidateId}`,
      `${timeOf(all[2]!)},erase,manager,${a.manager.user.id},${owner},${a.manager.user.email},${all[2]!.candidateId}`,
      `${timeOf(all[3]!)},export,manager,${fellow.user.id},'=Zoë Hopper,${fellow.user.email},${all[3]!.candidateId}`,
      `${timeOf(all[4]!)},export,manager,${a.manager.user.id},${owner},${a.manager.user.email},${all[4]!.candidateId}`,
    ]);
  });

  it("holds the filter's matches, with times in the company's time zone", async () => {
    await a.manager.pb.collection("companies").update(a.company.id, { timeZone: "Asia/Kathmandu" });
    try {
      const { res, bytes } = await csvOf(fellow.pb, "action=export");
      expect(res.status).toBe(200);
      const lines = bytes.subarray(3).toString("utf8").trim().split("\r\n");
      expect(lines[0]).toContain("Time (Asia/Kathmandu)");
      expect(lines.slice(1).map((line) => line.split(",").at(-1))).toEqual([all[3]!.candidateId, all[4]!.candidateId]);
      const kathmandu = new Date(Date.parse(all[3]!.created.replace(" ", "T")) + (5 * 60 + 45) * 60_000).toISOString().slice(0, 19).replace("T", " ");
      expect(lines[1]!.split(",")[1]).toBe(kathmandu);
    } finally {
      await a.manager.pb.collection("companies").update(a.company.id, { timeZone: "" });
    }
  });
});
