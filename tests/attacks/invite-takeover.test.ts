// Security issue 13, finding 1 (and 3's "an unverified account can create companies"): anyone may sign up with any
// address, so an account whose address is not proved must not reach that address's manager invites. The attacker
// signs up as the invited new@x without owning the mailbox; before the fix it signed in, listed the invite, accepted
// it and managed the company. Now it cannot sign in at all, and a token it somehow held (an account verified, signed
// in, then un-verified by a superuser) reads, deletes and accepts no invite and creates no company.
import { beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD,
  anonymous,
  createCompany,
  errorOf,
  markVerified,
  pngFile,
  signUp,
  signUpUnverified,
  statusOf,
  superuser,
  uniqueEmail,
} from "../helpers";
import { acceptInvite, countOf, inviteKey, storedOrNull } from "../support";

type Account = Awaited<ReturnType<typeof signUp>>;

/** A company of a fresh owner, with a pending invite for `email`. */
async function invited(label: string, email: string) {
  const owner = await signUp({ email: uniqueEmail(`${label}-owner`) });
  const company = await createCompany(owner.pb, `${label} company`);
  const invite = await owner.pb.collection("manager_invites").create({ company: company.id, email });
  return { owner, company, invite };
}

/** The company is as the owner left it: the owner its only manager, the invite still pending. */
async function expectUntouched(w: Awaited<ReturnType<typeof invited>>) {
  expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.owner.user.id]);
  expect(await storedOrNull("manager_invites", w.invite.id)).not.toBeNull();
}

async function setVerified(userId: string, verified: boolean) {
  await (await superuser()).collection("users").update(userId, { verified });
}

describe("signing up with someone else's address", () => {
  it("gets an account that cannot sign in: the refusal says why only to whoever knows the password", async () => {
    const email = uniqueEmail("new");
    const w = await invited("takeover", email);
    const { created } = await signUpUnverified({ email });
    expect(created.verified).toBe(false);

    const refused = await errorOf(() => anonymous().collection("users").authWithPassword(email, PASSWORD));
    expect(refused.status, JSON.stringify(refused.response)).toBe(403);
    expect(refused.response.message).toMatch(/^Please confirm your e-mail first/);

    // a wrong password is PocketBase's usual answer, word for word the one for an address nobody signed up with
    const wrong = await errorOf(() => anonymous().collection("users").authWithPassword(email, "not-the-password"));
    const unknown = await errorOf(() => anonymous().collection("users").authWithPassword(uniqueEmail("nobody"), "not-the-password"));
    expect(wrong.status).toBe(400);
    expect(wrong.response).toEqual(unknown.response);
    expect(wrong.response.message).not.toMatch(/confirm/i);

    // without a session nothing of the invite is reachable
    const pb = anonymous();
    expect(await pb.collection("manager_invites").getFullList({ filter: pb.filter("email = {:e}", { e: email }) })).toEqual([]);
    expect(await statusOf(() => pb.collection("manager_invites").getOne(w.invite.id))).toBe(404);
    expect((await acceptInvite(w.invite.id)).status).toBe(401);
    await expectUntouched(w);
  });

  it("signs in once the address is confirmed, and then accepts as the invitee", async () => {
    const email = uniqueEmail("confirmed");
    const w = await invited("confirmed", email);
    const { created } = await signUpUnverified({ email });
    await markVerified(created.id);

    const pb = anonymous();
    await pb.collection("users").authWithPassword(email, PASSWORD);
    expect((await pb.collection("manager_invites").getFullList()).map((i) => i.id)).toEqual([w.invite.id]);
    expect((await acceptInvite(w.invite.id, pb.authStore.token)).status).toBe(200);
    expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.owner.user.id, created.id]);
  });

  it("cannot come back through a deleted account and an invite sign-up without the invite's key", async () => {
    const email = uniqueEmail("again");
    const w = await invited("again", email);
    // the account is verified, signed in and then un-verified, so it still holds a token to delete itself with
    const first = await signUp({ email });
    await setVerified(first.user.id, false);
    expect(await first.pb.collection("manager_invites").getFullList()).toEqual([]);
    expect(await statusOf(() => first.pb.collection("users").delete(first.user.id))).toBe(200);

    // a sign-up with {invite} needs the key of an invite for exactly this address, which only its e-mail carries: a
    // guess, another address's invite, or this invite's id (its company's managers list it) is refused, creates nothing
    const other = await invited("again-other", uniqueEmail("someone-else"));
    for (const invite of ["x".repeat(40), await inviteKey(other.invite.id), w.invite.id]) {
      const err = await errorOf(() => signUpUnverified({ email, invite }));
      expect(err.status, JSON.stringify(err.response)).toBe(400);
      expect(err.response.message).toMatch(/^This invitation is no longer valid/);
      expect(await countOf("users", "email = {:email}", { email })).toBe(0);
    }
    await expectUntouched(w);
    await expectUntouched(other);

    // a plain sign-up is unverified again: refused at sign-in
    await signUpUnverified({ email });
    expect(await statusOf(() => anonymous().collection("users").authWithPassword(email, PASSWORD))).toBe(403);
    await expectUntouched(w);
  });
});

describe("a token of an account that is no longer verified", () => {
  const email = uniqueEmail("unverified");
  let w: Awaited<ReturnType<typeof invited>>;
  let account: Account;

  beforeAll(async () => {
    w = await invited("stale", email);
    account = await signUp({ email });
    // while verified the invitee sees its invite and the invited company
    expect((await account.pb.collection("manager_invites").getFullList()).map((i) => i.id)).toEqual([w.invite.id]);
    expect(await statusOf(() => account.pb.collection("companies").getOne(w.company.id))).toBe(200);
    await setVerified(account.user.id, false);
  });

  it("is not refreshed", async () => {
    const err = await errorOf(() => account.pb.collection("users").authRefresh());
    expect(err.status, JSON.stringify(err.response)).toBe(403);
    expect(err.response.message).toMatch(/^Please confirm your e-mail first/);
  });

  it("lists, views and deletes no invite, and does not view the invited company", async () => {
    const pb = account.pb;
    expect(await pb.collection("manager_invites").getFullList()).toEqual([]);
    expect(await statusOf(() => pb.collection("manager_invites").getOne(w.invite.id))).toBe(404);
    expect(await statusOf(() => pb.collection("manager_invites").delete(w.invite.id))).toBe(404);
    expect(await statusOf(() => pb.collection("companies").getOne(w.company.id))).toBe(404);
    await expectUntouched(w);
  });

  it("does not accept the invite, even knowing its id", async () => {
    const res = await acceptInvite(w.invite.id, account.pb.authStore.token);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(String(res.body.message)).toMatch(/^Please confirm your e-mail first/);
    await expectUntouched(w);
    expect((await storedOrNull("users", account.user.id))?.primaryCompany).toBe("");
  });

  it("creates no company", async () => {
    const before = await countOf("companies", "managers.id ?= {:u}", { u: account.user.id });
    const status = await statusOf(() =>
      account.pb.collection("companies").create({ name: "Unverified Inc", website: "https://unverified.example.com", logo: pngFile() }),
    );
    expect(status).toBe(400);
    expect(await countOf("companies", "managers.id ?= {:u}", { u: account.user.id })).toBe(before);
  });

  it("still reads and edits its own profile", async () => {
    expect((await account.pb.collection("users").getOne(account.user.id)).email).toBe(email);
    expect((await account.pb.collection("users").update(account.user.id, { firstName: "Changed" })).firstName).toBe("Changed");
  });

  it("works again once the address is confirmed", async () => {
    await setVerified(account.user.id, true);
    expect((await account.pb.collection("manager_invites").getFullList()).map((i) => i.id)).toEqual([w.invite.id]);
    expect((await acceptInvite(w.invite.id, account.pb.authStore.token)).status).toBe(200);
    expect((await storedOrNull("companies", w.company.id))?.managers).toEqual([w.owner.user.id, account.user.id]);
  });
});

describe("the invite-link sign-up (rule 5)", () => {
  it("verifies the account, which signs in straight away", async () => {
    const email = uniqueEmail("invite-link");
    const w = await invited("invite-link", email);
    const { created } = await signUpUnverified({ email, invite: await inviteKey(w.invite.id) });
    expect(created.verified).toBe(true);
    const pb = anonymous();
    await pb.collection("users").authWithPassword(email, PASSWORD);
    expect((await pb.collection("companies").getOne(w.company.id)).id).toBe(w.company.id);
  });
});

describe("the invite's key", () => {
  it("is seen by nobody through the API, not even the company's managers, and no filter can test it", async () => {
    // M shares a company with the owner of a company M does not manage, whose invite is pending
    const email = uniqueEmail("keyed");
    const w = await invited("keyed", email);
    const m = await signUp({ email: uniqueEmail("keyed-m") });
    const shared = await createCompany(m.pb, "Shared company");
    const join = await m.pb.collection("manager_invites").create({ company: shared.id, email: w.owner.user.email });
    expect((await acceptInvite(join.id, w.owner.pb.authStore.token)).status).toBe(200);
    const key = await inviteKey(w.invite.id);

    expect((await w.owner.pb.collection("manager_invites").getOne(w.invite.id)).secret).toBeUndefined();
    expect((await w.owner.pb.collection("manager_invites").getFullList())[0]!.secret).toBeUndefined();

    const answer = async (pb: typeof m.pb, filter: string) => {
      try {
        const list = await pb.collection("users").getList(1, 10, { filter });
        return { status: 200, count: list.totalItems };
      } catch (err) {
        const refused = err as { status: number; response: unknown };
        return { status: refused.status, body: refused.response };
      }
    };
    const path = `id = "${w.owner.user.id}" && companies_via_managers.manager_invites_via_company.secret`;
    for (const [right, wrong] of [
      [`${path} >= "${key.slice(0, 2)}"`, `${path} >= "~~"`],
      [`${path} != "${key}"`, `${path} != "${"x".repeat(40)}"`],
      [`${path} ?= "${key}"`, `${path} ?= "${"x".repeat(40)}"`],
    ]) {
      expect(await answer(m.pb, right!)).toEqual(await answer(m.pb, wrong!));
    }
  });
});
