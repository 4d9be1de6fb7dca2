// Security issue 13, finding 4: a co-manager removed the company's creator (PATCH {"managers-": creator}) and had
// the company to themselves. Each company now has an owner, its creator (decisions.md "Accounts and teams"): nobody
// changes the owner through the API, nobody removes the owner, only the owner removes other managers, and any other
// manager may remove only themselves (leave).
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { createCompany, pngFile, signUp, statusOf, superuser, uniqueEmail } from "../helpers";
import { acceptInvite, expectFieldError, storedOrNull } from "../support";

type Account = Awaited<ReturnType<typeof signUp>>;

/** A company of `owner.pb` with co-managers who joined by accepting invites. */
async function team(label: string, coManagers = 2) {
  const owner = await signUp({ email: uniqueEmail(`${label}-owner`) });
  const company = await createCompany(owner.pb, `${label} company`);
  const others: Account[] = [];
  for (let i = 0; i < coManagers; i++) {
    const other = await signUp({ email: uniqueEmail(`${label}-co${i}`) });
    const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email: other.user.email });
    const accepted = await acceptInvite(invite.id, other.pb.authStore.token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    others.push(other);
  }
  return { owner, company, others };
}

const managersOf = async (companyId: string) => (await storedOrNull("companies", companyId))?.managers as string[];
const ownerOf = async (companyId: string) => (await storedOrNull("companies", companyId))?.owner as string;
const companies = (pb: PocketBase) => pb.collection("companies");

describe("the owner of a company", () => {
  it("is its creator, whatever the client sends", async () => {
    const other = await signUp({ email: uniqueEmail("owner-other") });
    const me = await signUp({ email: uniqueEmail("owner-creator") });
    const company = await companies(me.pb).create({
      name: "Owned",
      website: "https://owned.example.com",
      logo: pngFile(),
      owner: other.user.id,
      managers: [other.user.id],
    });
    expect(company.owner).toBe(me.user.id);
    expect(await ownerOf(company.id)).toBe(me.user.id);
    expect(await managersOf(company.id)).toEqual([me.user.id]);
  });

  it("cannot be removed by a co-manager: the creator stays", async () => {
    const { owner, company, others } = await team("remove-owner");
    const [co] = others;
    const error = await expectFieldError(() => companies(co!.pb).update(company.id, { "managers-": owner.user.id }), "managers");
    expect(error.message).toMatch(/owner/i);
    // nor by sending the list without them
    await expectFieldError(() => companies(co!.pb).update(company.id, { managers: others.map((o) => o.user.id) }), "managers");
    expect(await managersOf(company.id)).toEqual([owner.user.id, ...others.map((o) => o.user.id)]);
    expect(await ownerOf(company.id)).toBe(owner.user.id);
  });

  it("cannot remove themselves, nor be removed by a superuser", async () => {
    const { owner, company } = await team("owner-leaves", 1);
    await expectFieldError(() => companies(owner.pb).update(company.id, { "managers-": owner.user.id }), "managers");
    const su = await superuser();
    await expectFieldError(() => companies(su).update(company.id, { "managers-": owner.user.id }), "managers");
    expect(await managersOf(company.id)).toContain(owner.user.id);
  });

  it("cannot be changed, by a manager, the owner or a superuser", async () => {
    const { owner, company, others } = await team("change-owner", 1);
    const [co] = others;
    const su = await superuser();
    for (const pb of [co!.pb, owner.pb, su]) {
      const error = await expectFieldError(() => companies(pb).update(company.id, { owner: co!.user.id }), "owner");
      expect(error.message).toMatch(/cannot be changed/);
    }
    expect(await ownerOf(company.id)).toBe(owner.user.id);
    // sending the owner it already has changes nothing and is fine
    expect((await companies(co!.pb).update(company.id, { owner: owner.user.id, name: "Same owner" })).owner).toBe(owner.user.id);
  });

  it("removes a co-manager, who then no longer has the company as primaryCompany", async () => {
    const { owner, company, others } = await team("owner-removes", 2);
    const [first, second] = others;
    expect((await storedOrNull("users", first!.user.id))?.primaryCompany).toBe(company.id);

    const updated = await companies(owner.pb).update(company.id, { "managers-": first!.user.id });
    expect(updated.managers).toEqual([owner.user.id, second!.user.id]);
    expect(await managersOf(company.id)).toEqual([owner.user.id, second!.user.id]);
    expect((await storedOrNull("users", first!.user.id))?.primaryCompany).toBe("");
    expect(await first!.pb.collection("companies").getFullList()).toEqual([]);
  });
});

describe("a co-manager", () => {
  it("cannot delete the company, with everything in it; the owner can", async () => {
    const { owner, company, others } = await team("co-deletes", 1);
    expect(await statusOf(() => companies(others[0]!.pb).delete(company.id))).toBe(404);
    expect(await storedOrNull("companies", company.id)).not.toBeNull();
    expect(await statusOf(() => companies(owner.pb).delete(company.id))).toBe(200);
    expect(await storedOrNull("companies", company.id)).toBeNull();
  });

  it("cannot remove another co-manager", async () => {
    const { owner, company, others } = await team("co-removes-co", 2);
    const [first, second] = others;
    const error = await expectFieldError(() => companies(first!.pb).update(company.id, { "managers-": second!.user.id }), "managers");
    expect(error.message).toMatch(/^Only the owner/);
    // nor themselves and another at once
    await expectFieldError(
      () => companies(first!.pb).update(company.id, { "managers-": [first!.user.id, second!.user.id] }),
      "managers",
    );
    expect(await managersOf(company.id)).toEqual([owner.user.id, first!.user.id, second!.user.id]);
  });

  it("can leave; their primaryCompany moves to another company they manage", async () => {
    const { owner, company, others } = await team("co-leaves", 1);
    const [co] = others;
    const own = await createCompany(co!.pb, "The co-manager's own");
    await co!.pb.collection("users").update(co!.user.id, { primaryCompany: company.id });

    // a leave that fails on another field changes nothing
    await expectFieldError(() => companies(co!.pb).update(company.id, { "managers-": co!.user.id, name: "" }), "name");
    expect(await managersOf(company.id)).toEqual([owner.user.id, co!.user.id]);
    expect((await storedOrNull("users", co!.user.id))?.primaryCompany).toBe(company.id);

    const left = await companies(co!.pb).update(company.id, { "managers-": co!.user.id });
    expect(left.managers).toEqual([owner.user.id]);
    expect(await managersOf(company.id)).toEqual([owner.user.id]);
    expect((await storedOrNull("users", co!.user.id))?.primaryCompany).toBe(own.id);
    expect((await co!.pb.collection("companies").getFullList()).map((c) => c.id)).toEqual([own.id]);
  });

  it("cannot add a manager, as before", async () => {
    const { company, others } = await team("co-adds", 1);
    const stranger = await signUp({ email: uniqueEmail("co-adds-stranger") });
    await expectFieldError(() => companies(others[0]!.pb).update(company.id, { "managers+": stranger.user.id }), "managers");
  });
});

describe("companies made by a superuser (seed scripts)", () => {
  it("are owned by the first manager unless an owner is chosen, and the owner is a manager", async () => {
    const su = await superuser();
    const a = await signUp({ email: uniqueEmail("su-a") });
    const b = await signUp({ email: uniqueEmail("su-b") });
    const fields = { website: "https://seeded.example.com", logo: pngFile() };
    const byDefault = await companies(su).create({ ...fields, name: "Default", managers: [a.user.id, b.user.id] });
    expect(byDefault.owner).toBe(a.user.id);
    const chosen = await companies(su).create({ ...fields, logo: pngFile(), name: "Chosen", managers: [a.user.id], owner: b.user.id });
    expect(chosen.owner).toBe(b.user.id);
    expect(chosen.managers).toEqual([b.user.id, a.user.id]);
  });
});

describe("the owner's account", () => {
  it("cannot be deleted while it owns a company; a co-manager's can", async () => {
    const { owner, company, others } = await team("delete-owner", 1);
    const [co] = others;
    expect(await statusOf(() => owner.pb.collection("users").delete(owner.user.id))).toBe(400);
    expect(await storedOrNull("users", owner.user.id)).not.toBeNull();
    await co!.pb.collection("users").delete(co!.user.id);
    expect(await managersOf(company.id)).toEqual([owner.user.id]);
    expect(await ownerOf(company.id)).toBe(owner.user.id);
  });
});
