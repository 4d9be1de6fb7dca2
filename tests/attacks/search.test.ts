// Transcript search as an attacker sees it (issue 18 point 3, server/internal/search/search.go): the
// index is no collection, so no records API, batch, filter or expand reaches it (and PocketBase sends realtime
// events for records only); the route answers the
// company's managers only and the same 404 to everyone else, whether the company exists or not; nothing typed in the
// query or the path widens a search beyond its company.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, answerText, createCompany, pbUrl, signUp, statusOf, superuser, uniqueEmail, world } from "../helpers";
import { acceptInvite } from "../support";

let a: Awaited<ReturnType<typeof world>>;
/** a manager of company X, which A also manages: A's fellow manager, but not a manager of A's company */
let fellow: Awaited<ReturnType<typeof signUp>>;
let x: { id: string };
const SECRET = `kestrobal${Date.now().toString(36).replace(/[0-9]/g, "z")}`;

const searchStatus = (pb: PocketBase, company: string, q = SECRET) =>
  statusOf(() => pb.send(`/api/screenroom/companies/${encodeURIComponent(company)}/search`, { query: { q } }));

beforeAll(async () => {
  a = await world("search-attack");
  await answerText(a.candidate.id, a.text.question.id, `Our ${SECRET} numbers are "quoted*" (NEAR) and confidential.`);
  x = await createCompany(a.manager.pb, "Search attack X");
  fellow = await signUp({ email: uniqueEmail("search-fellow") });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: x.id, email: fellow.user.email });
  expect((await acceptInvite(invite.id, fellow.pb.authStore.token)).status).toBe(200);
});

describe("search attacks", () => {
  it("the company's manager finds the answer, even with FTS5 syntax in its text", async () => {
    const res = await a.manager.pb.send<{ items: unknown[] }>(`/api/screenroom/companies/${a.company.id}/search`, { query: { q: `${SECRET} "quoted" near` } });
    expect(res.items).toHaveLength(1);
  });

  it("a fellow manager of another company, and anonymous get 404", async () => {
    expect(await searchStatus(fellow.pb, a.company.id)).toBe(404);
    // the fellow's own company holds nothing of A's
    expect((await fellow.pb.send<{ items: unknown[] }>(`/api/screenroom/companies/${x.id}/search`, { query: { q: SECRET } })).items).toEqual([]);
    expect(await searchStatus(anonymous(), a.company.id)).toBe(404);
  });

  it("a manager taken off the company loses the search at once", async () => {
    const su = await superuser();
    const company = await su.collection("companies").getOne(x.id);
    await su.collection("companies").update(x.id, { managers: (company.managers as string[]).filter((id) => id !== fellow.user.id) });
    expect(await searchStatus(fellow.pb, x.id)).toBe(404);
  });

  it("a company id carrying FTS5 syntax is no company: 404, nothing found", async () => {
    for (const id of [`${a.company.id}" OR "x`, `${a.company.id}0" OR body : "${SECRET}`, "*", `${a.company.id} `]) {
      expect(await searchStatus(fellow.pb, id), id).toBe(404);
      expect(await searchStatus(a.manager.pb, id), id).toBe(404);
    }
  });

  it("the index is not a collection: no records API or batch request reaches it", async () => {
    for (const name of ["answer_search", "answer_search_docs"]) {
      for (const pb of [a.manager.pb, fellow.pb, anonymous()]) {
        expect(await statusOf(() => pb.collection(name).getList(1, 1)), name).toBe(404);
        expect(await statusOf(() => pb.collection(name).getFullList({ filter: `body ~ "${SECRET}"` })), name).toBe(404);
      }
      const res = await fetch(`${pbUrl()}/api/batch`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: a.manager.pb.authStore.token },
        body: JSON.stringify({ requests: [{ method: "GET", url: `/api/collections/${name}/records` }] }),
      });
      expect(res.status, name).toBeGreaterThanOrEqual(400);
    }
  });
});
