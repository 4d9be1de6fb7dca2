// Security round three, "a limit must never break a flow that succeeded": a sign-up's verification e-mail refused by
// the per-client mail limit (429, an office behind one address meets it) left the account made while the screen
// stayed on the form, and a second try said the account already existed. The SPA now shows 'Check your inbox' with
// the resend; for that resend to say when another e-mail can be sent, the verification route's 429 tells the caller
// when its own client's window ends (Retry-After and `retryAfter`, server/internal/accounts/verification_resend.go),
// and nothing about the address. A PocketBase of its own with a low limit, as tests/attacks/throttling.test.ts starts
// its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, mailsTo, signUpUnverified, statusOf, superuser, uniqueEmail, useOwnServer } from "../helpers";

const WINDOW_SECONDS = 600;

/** POST request-verification as the SDK sends it, read raw: the SDK keeps no response headers. */
async function requestVerification(url: string, email: string) {
  const res = await fetch(`${url}/api/collections/users/request-verification`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  const text = await res.text();
  return { status: res.status, retryAfterHeader: res.headers.get("retry-after"), body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("a sign-up whose verification e-mail meets the client's mail limit", () => {
  let server: Awaited<ReturnType<typeof useOwnServer>>;
  beforeAll(async () => {
    server = await useOwnServer({ RATE_LIMIT_ACCOUNT_MAIL: `2/${WINDOW_SECONDS}` });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps the account, and the resend route answers 429 with when this client may ask again", async () => {
    // two colleagues behind the office's one address sign up and get their e-mails; the window starts at the first
    const startedBefore = Math.floor(Date.now() / 1000);
    for (const label of ["colleague-a", "colleague-b"]) {
      const { email } = await signUpUnverified({ email: uniqueEmail(label) });
      expect((await requestVerification(server.url, email)).status).toBe(204);
    }

    // the third signs up as the SPA does: the account is made, its e-mail is refused for the client's limit
    const { email, created } = await signUpUnverified({ email: uniqueEmail("third-colleague") });
    const refused = await requestVerification(server.url, email);
    const answeredAt = Math.ceil(Date.now() / 1000);
    expect(refused.status).toBe(429);
    const stored = await (await superuser()).collection("users").getOne(created.id);
    expect(stored).toMatchObject({ email, verified: false });

    // when the window ends, in seconds from now, in the header and in the body the SDK hands the SPA
    const retryAfter = refused.body?.retryAfter;
    expect(typeof retryAfter).toBe("number");
    expect(refused.retryAfterHeader).toBe(String(retryAfter));
    expect(retryAfter as number).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(retryAfter as number).toBeGreaterThanOrEqual(WINDOW_SECONDS - (answeredAt - startedBefore) - 1);
    // PocketBase's own answer otherwise: no account, address or budget in it
    expect(refused.body).toEqual({ status: 429, message: "Too Many Requests.", data: {}, retryAfter });

    // the resend ('Resend the e-mail' on 'Check your inbox') meets the same window, and says so again
    const resend = await requestVerification(server.url, email);
    expect(resend.status).toBe(429);
    expect(resend.body?.retryAfter as number).toBeLessThanOrEqual(retryAfter as number);
    expect(resend.body?.retryAfter as number).toBeGreaterThanOrEqual((retryAfter as number) - 5);
    // through the SDK, as the SPA reads it
    const viaSdk = await client()
      .collection("users")
      .requestVerification(email)
      .catch((err: { status: number; response: Record<string, unknown> }) => err);
    expect(viaSdk).toMatchObject({ status: 429, response: { retryAfter: expect.any(Number) } });

    // an address with no account gets the very same answer: the wait is the client's, not the address's
    const nobody = await requestVerification(server.url, uniqueEmail("no-account"));
    expect(nobody.status).toBe(429);
    expect(Object.keys(nobody.body ?? {}).sort()).toEqual(["data", "message", "retryAfter", "status"]);

    // nothing was sent to the third colleague, and a second sign-up would only find the account made
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await statusOf(() => signUpUnverified({ email }))).toBe(400);
  });
});
