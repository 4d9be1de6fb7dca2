// Who reads the hiring funnel's figures (server/internal/analytics): GET /api/screenroom/jobs/{id}/analytics and
// GET /api/screenroom/companies/{id}/analytics answer the verified managers of the company, and everyone else the
// same 404 an unknown id gets: another company's manager, a manager removed from the company, a manager whose address
// is no longer confirmed, an invitee who has not joined, a signed-in user of no company, a candidate's key, anonymous.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, asCandidate, refusalBody, signUp, superuser, uniqueEmail, world } from "./helpers";
import { acceptInvite } from "./support";

type World = Awaited<ReturnType<typeof world>>;
type Actor = "manager" | "coManager" | "otherManager" | "removedManager" | "unverifiedManager" | "invitee" | "noCompany" | "candidate" | "anonymous";
const ACTORS: Actor[] = ["manager", "coManager", "otherManager", "removedManager", "unverifiedManager", "invitee", "noCompany", "candidate", "anonymous"];
const ALLOWED: Actor[] = ["manager", "coManager"];

let a: World;
let b: World;
const clients = {} as Record<Actor, PocketBase>;

/** A fresh user who joins A's company through an invite, as the product adds a co-manager. */
async function joinA(label: string) {
  const fellow = await signUp({ email: uniqueEmail(label) });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: fellow.user.email });
  expect((await acceptInvite(invite.id, fellow.pb.authStore.token)).status).toBe(200);
  return fellow;
}

beforeAll(async () => {
  [a, b] = await Promise.all([world("analytics-matrix-a"), world("analytics-matrix-b")]);
  const su = await superuser();
  const coManager = await joinA("analytics-co");
  const removed = await joinA("analytics-removed");
  await a.manager.pb.collection("companies").update(a.company.id, { "managers-": removed.user.id });
  // joined, then the address is no longer confirmed (an e-mail change not yet confirmed): still a manager on paper
  const unverified = await joinA("analytics-unverified");
  await su.collection("users").update(unverified.user.id, { verified: false });
  const invitee = await signUp({ email: uniqueEmail("analytics-invitee") });
  await a.manager.pb.collection("manager_invites").create({ company: a.company.id, email: invitee.user.email });
  const noCompany = await signUp({ email: uniqueEmail("analytics-nocompany") });
  Object.assign(clients, {
    manager: a.manager.pb,
    coManager: coManager.pb,
    otherManager: b.manager.pb,
    removedManager: removed.pb,
    unverifiedManager: unverified.pb,
    invitee: invitee.pb,
    noCompany: noCompany.pb,
    candidate: asCandidate(a.candidate.id),
    anonymous: anonymous(),
  });
});

const routes: { name: string; path: () => string; unknown: string }[] = [
  { name: "GET /api/screenroom/jobs/{id}/analytics", path: () => `/api/screenroom/jobs/${a.job.id}/analytics`, unknown: "/api/screenroom/jobs/zzzzzzzzzzzzzzz/analytics" },
  {
    name: "GET /api/screenroom/companies/{id}/analytics",
    path: () => `/api/screenroom/companies/${a.company.id}/analytics`,
    unknown: "/api/screenroom/companies/zzzzzzzzzzzzzzz/analytics",
  },
  // Refresh: the figures computed before the answer, for the same managers only
  {
    name: "GET /api/screenroom/jobs/{id}/analytics?fresh=1",
    path: () => `/api/screenroom/jobs/${a.job.id}/analytics?fresh=1`,
    unknown: "/api/screenroom/jobs/zzzzzzzzzzzzzzz/analytics?fresh=1",
  },
  {
    name: "GET /api/screenroom/companies/{id}/analytics?fresh=1",
    path: () => `/api/screenroom/companies/${a.company.id}/analytics?fresh=1`,
    unknown: "/api/screenroom/companies/zzzzzzzzzzzzzzz/analytics?fresh=1",
  },
];

describe.each(routes)("$name", (route) => {
  it.each(ACTORS)("as %s", async (actor) => {
    const pb = clients[actor];
    const outcome = await refusalBody(() => pb.send(route.path(), { method: "GET" }));
    if (ALLOWED.includes(actor)) {
      expect(outcome.status).toBe(200);
      const figures = await pb.send<{ funnel: { invited: number } }>(route.path(), { method: "GET" });
      expect(figures.funnel.invited).toBe(1);
    } else {
      // word for word what an id that does not exist gets
      expect(outcome).toEqual(await refusalBody(() => pb.send(route.unknown, { method: "GET" })));
      expect(outcome.status).toBe(404);
    }
  });
});
