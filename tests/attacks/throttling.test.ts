// Security issue 13, finding 3: no throttling. 40 wrong passwords a second never met a 429; six reset and six
// verification requests for one address delivered twelve e-mails; a manager made the product mail any outside
// address over and over (creating and deleting candidates or invites). Now PocketBase's rate limiter is on with the
// product's rules per client, and every flow that mails a third party draws on a budget per address. The limits come
// from the environment: this suite runs a PocketBase of its own with low ones (the shared stack's are too high to
// trigger).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD,
  client,
  createCompany,
  createJob,
  createQuestion,
  mailsTo,
  signUp,
  signUpUnverified,
  statusOf,
  superuser,
  uniqueEmail,
  useOwnServer,
  waitForMail,
} from "../helpers";

/** A signed-in manager with a company and a job: made first, as every sign-in of this suite's client counts. */
async function managerWithJob(label: string) {
  const manager = await signUp({ email: uniqueEmail(label) });
  const company = await createCompany(manager.pb, `${label} Inc`);
  const { question } = await createQuestion(manager.pb, company.id, "text");
  const job = await createJob(manager.pb, company.id, [question.id]);
  return { manager, company, job };
}
/** Statuses of a flood: the allowed ones, then only 429s, with at least one 429. */
function expectAllowedThenThrottled(statuses: number[], allowed: number) {
  const first = statuses.indexOf(429);
  expect(first, JSON.stringify(statuses)).toBeGreaterThan(0);
  expect(statuses.slice(0, first).every((s) => s === allowed), JSON.stringify(statuses)).toBe(true);
  expect(statuses.slice(first).every((s) => s === 429), JSON.stringify(statuses)).toBe(true);
}

/** Waits until `address` has `count` e-mails, then long enough for a further one to have arrived, and counts again. */
async function settledMailCount(address: string, count: number) {
  for (let i = 1; i <= count; i += 1) {
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(i);
  }
  // an e-mail that should not come: PocketBase sends account e-mails in the background, so its absence is only
  // seen after a while (a send takes milliseconds on loopback)
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return (await mailsTo(address)).length;
}

// Each block runs a PocketBase of its own (one at a time), as every request of this suite comes from one client
// address: the per-client limits, low in the first, would otherwise throttle the second block's sign-ins.
describe("per-client rate limits", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  let bulk: Awaited<ReturnType<typeof managerWithJob>>;
  beforeAll(async () => {
    server = await useOwnServer({ RATE_LIMIT_AUTH: "5/60", RATE_LIMIT_ACCOUNT_MAIL: "4/60", RATE_LIMIT_INVITES: "6/60" });
    bulk = await managerWithJob("bulk");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 429 to a client's sign-in attempts past five a minute, right password or not", async () => {
    const { user } = await signUp({ email: uniqueEmail("throttled-signin") });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push(await statusOf(() => client().collection("users").authWithPassword(user.email as string, "wrong-password")));
    expectAllowedThenThrottled(statuses, 400);
    // the right password too, while the limit holds
    expect(await statusOf(() => client().collection("users").authWithPassword(user.email as string, PASSWORD))).toBe(429);
  });

  it("refuses a client's requests for account e-mails past its limit with 429", async () => {
    const anon = client();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push(await statusOf(() => anon.collection("users").requestPasswordReset(uniqueEmail("nobody"))));
    expectAllowedThenThrottled(statuses, 200);
  });

  it("sends a verification e-mail again at once (issue 16's 'Resend the e-mail'), up to the client's limit", async () => {
    // PocketBase alone drops a second request within two minutes; this server lifts that lock and keeps its own
    // limits: here four requests a client a minute (the address's budget is the next block's)
    const email = uniqueEmail("resend");
    await signUpUnverified({ email });
    const anon = client();
    // each request once the e-mail before it arrived, as a person presses 'Resend': PocketBase sets its lock when a
    // send is done, so requests sent together all pass it and would prove nothing
    for (let i = 1; i <= 4; i += 1) {
      expect(await statusOf(() => anon.collection("users").requestVerification(email))).toBe(200);
      await expect.poll(async () => (await mailsTo(email)).length, { timeout: 30_000 }).toBe(i);
    }
    expect(await settledMailCount(email, 4)).toBe(4);
    expect(await statusOf(() => anon.collection("users").requestVerification(email))).toBe(429);
  });

  it("limits how many invites and candidates one client creates in a minute", async () => {
    const { manager, job } = bulk;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push(await statusOf(() => manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("bulk") })));
    }
    expectAllowedThenThrottled(statuses, 200);
  });

  it("keeps its limits in the settings, from the environment, where a superuser can read them", async () => {
    const settings = await (await superuser()).settings.getAll();
    expect(settings.rateLimits.enabled).toBe(true);
    expect(settings.rateLimits.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: "*:auth", maxRequests: 5, duration: 60 }),
        expect.objectContaining({ label: "*:requestPasswordReset", maxRequests: 4, duration: 60 }),
        expect.objectContaining({ label: "candidates:create", maxRequests: 6, duration: 60 }),
        expect.objectContaining({ label: "manager_invites:create", maxRequests: 6, duration: 60 }),
      ]),
    );
  });
});

describe("the e-mail budget of an address", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  let spammer: Awaited<ReturnType<typeof managerWithJob>>;
  beforeAll(async () => {
    // one e-mail an address: PocketBase alone would send a reset and a verification (each throttled per account)
    server = await useOwnServer({ MAIL_PER_ADDRESS: "1/3600" });
    spammer = await managerWithJob("spam");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends at most the address's budget of reset and verification e-mails, however many are asked for", async () => {
    const email = uniqueEmail("reset-flood");
    await signUpUnverified({ email }); // sign-up sends no verification mail by itself
    const anon = client();
    for (let i = 0; i < 2; i += 1) {
      expect(await statusOf(() => anon.collection("users").requestPasswordReset(email))).toBe(200); // (any success: PocketBase answers 204)
      expect(await statusOf(() => anon.collection("users").requestVerification(email))).toBe(200);
    }
    expect(await settledMailCount(email, 1)).toBe(1);
  });

  it("stops a manager mailing one outside address over and over by creating and deleting candidates", async () => {
    const { manager, company, job } = spammer;
    const victim = uniqueEmail("victim");
    const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: victim });
    await waitForMail(victim);
    await manager.pb.collection("candidates").delete(candidate.id);
    const refused = await manager.pb
      .collection("candidates")
      .create({ job: job.id, email: victim })
      .catch((err: { status: number; response: { data: Record<string, { message: string }> } }) => err);
    expect(refused).toMatchObject({ status: 429, response: { data: { email: { message: "Too many e-mails were sent to this address. Please try again later." } } } });
    // nor by inviting the same address as a manager
    expect(await statusOf(() => manager.pb.collection("manager_invites").create({ company: company.id, email: victim }))).toBe(429);
    expect(await settledMailCount(victim, 1)).toBe(1);
    // another address is not held back
    expect(await statusOf(() => manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("other") }))).toBe(200);
  });

  it("keeps a manager who spent an address's invites from blocking its owner's password reset", async () => {
    const { manager, company } = spammer;
    const owner = uniqueEmail("reset-owner");
    await signUp({ email: owner });
    expect(await statusOf(() => manager.pb.collection("manager_invites").create({ company: company.id, email: owner }))).toBe(200);
    expect(await statusOf(() => manager.pb.collection("manager_invites").create({ company: company.id, email: owner.toUpperCase() }))).toBe(429);
    await client().collection("users").requestPasswordReset(owner);
    await expect.poll(async () => (await mailsTo(owner)).some((m) => /reset/i.test(m.subject)), { timeout: 30_000 }).toBe(true);
  });

  it("mails a new address for an e-mail change within its budget, and never for an unverified account", async () => {
    const { manager } = spammer;
    const target = uniqueEmail("change-target");
    expect(await statusOf(() => manager.pb.collection("users").requestEmailChange(target))).toBe(200);
    const again = await manager.pb
      .collection("users")
      .requestEmailChange(target)
      .catch((err: { status: number; response: { data: Record<string, unknown> } }) => err);
    expect(again).toMatchObject({ status: 429, response: { data: { newEmail: expect.anything() } } });
    expect(await settledMailCount(target, 1)).toBe(1);

    // an account whose address is not confirmed (here: no longer), with a token it still holds
    const held = await signUp({ email: uniqueEmail("unconfirmed-changer") });
    await (await superuser()).collection("users").update(held.user.id, { verified: false });
    const elsewhere = uniqueEmail("someone-else");
    expect(await statusOf(() => held.pb.collection("users").requestEmailChange(elsewhere))).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await mailsTo(elsewhere)).toHaveLength(0);
  });
});
