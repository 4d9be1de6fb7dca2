// Security issue 13, finding 2: the filter oracle. A manager M shares company X with A; A also manages company Y, with
// a candidate, a job and a text answer M must never learn anything about. Before the fix, M binary-searched through
// relation paths in its own filters, e.g. users?filter=id='A' && companies_via_managers.jobs_via_company.candidates_via_job.id >= '…',
// and PocketBase's all-rows check for `>=`, `!=`, `!~` ignored the related collections' rules: ~80 requests gave a
// candidate's id, which was its interview credential; `!=` and `!~` confirmed e-mails, titles and answers.
// Now the credential is a hidden key no filter can name, and client filters and sorts cannot follow relations out
// of what the caller may list: a true and a false guess get identical answers (status, body, count).
import type { ClientResponseError } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, asCandidateKey, createCompany, createJob, createQuestion, keyOf, linksIn, mailsTo, pbUrl, randomId, signUp, superuser, uniqueEmail, world } from "../helpers";
import { acceptInvite, listOutcome } from "../support";

let m: Awaited<ReturnType<typeof signUp>>;
let a: Awaited<ReturnType<typeof world>>;
let secretCandidate: { id: string; email: string; key: string };
const ANSWER = "My salary expectation is ninety thousand";

beforeAll(async () => {
  // A manages Y (a.company: its job, candidate and answer) and X, which M manages too
  a = await world("oracle-y");
  const x = await createCompany(a.manager.pb, "Oracle X");
  m = await signUp({ email: uniqueEmail("oracle-m") });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: x.id, email: m.user.email });
  expect((await acceptInvite(invite.id, m.pb.authStore.token)).status).toBe(200);
  await answerText(a.candidate.id, a.text.question.id, ANSWER);
  secretCandidate = { id: a.candidate.id, email: a.candidate.email as string, key: (await keyOf(a.candidate.id))! };
});

const Y_CANDIDATES = "companies_via_managers.jobs_via_company.candidates_via_job";

/** [what is guessed, true value, false value, the filter for a guess] from users (id = A) and from companies. */
function guesses(): [string, string, string, (g: string) => string][] {
  const fromUsers = (tail: string) => (g: string) => `id = '${a.manager.user.id}' && ${Y_CANDIDATES}.${tail.replace("GUESS", g)}`;
  const fromCompanies = (tail: string) => (g: string) => `managers.${Y_CANDIDATES}.${tail.replace("GUESS", g)}`;
  const idPrefix = secretCandidate.id.slice(0, 3);
  return [
    ["a candidate id by >= (users)", idPrefix, "zzz", fromUsers("id >= 'GUESS'")],
    ["a candidate id by >= (companies)", idPrefix, "zzz", fromCompanies("id >= 'GUESS'")],
    ["the candidate key by >= (users)", secretCandidate.key.slice(0, 2), "~~", fromUsers("secret >= 'GUESS'")],
    ["the candidate key by = (companies)", secretCandidate.key, "x".repeat(40), fromCompanies("secret = 'GUESS'")],
    ["a candidate e-mail by != (users)", secretCandidate.email, "nobody@example.com", fromUsers("email != 'GUESS'")],
    ["a candidate e-mail by !~ (companies)", secretCandidate.email.split("@")[0]!, "nobody", fromCompanies("email !~ 'GUESS'")],
    ["a job title by != (users)", a.job.title as string, "No such job", (g) => `id = '${a.manager.user.id}' && companies_via_managers.jobs_via_company.title != '${g}'`],
    [
      "a text answer by !~ (users)",
      "ninety thousand",
      "fifty thousand",
      fromUsers("answers_via_candidate.text_answers_via_answer.content !~ 'GUESS'"),
    ],
    ["a candidate e-mail through @collection", secretCandidate.email, "nobody@example.com", (g) => `@collection.candidates.email != '${g}'`],
  ];
}

describe("the filter oracle", () => {
  it("gives identical answers to a true and a false guess, from users and from companies", async () => {
    for (const [what, truth, lie, filter] of guesses()) {
      const collection = filter("x").startsWith("managers.") ? "companies" : "users";
      const right = await listOutcome(m.pb, collection, { filter: filter(truth) });
      const wrong = await listOutcome(m.pb, collection, { filter: filter(lie) });
      expect({ what, right }).toEqual({ what, right: wrong });
      // refused outright, not merely empty: a relation path in a client filter is not allowed
      expect({ what, status: right.status }).toEqual({ what, status: 400 });
    }
  });

  it("gives identical answers however the filter is sent: HEAD, a `//` comment hiding a path, `@request.auth` relations", async () => {
    const email = (g: string) => `${Y_CANDIDATES}.email !~ '${g}'`;
    const variants: [string, (g: string) => Promise<unknown>][] = [
      [
        "HEAD (Content-Length)",
        async (g) => {
          const res = await fetch(`${pbUrl()}/api/collections/users/records?filter=${encodeURIComponent(email(g))}`, {
            method: "HEAD",
            headers: { Authorization: m.pb.authStore.token },
          });
          return { status: res.status, length: res.headers.get("content-length") };
        },
      ],
      ["a comment with a quote before the path", (g) => listOutcome(m.pb, "users", { filter: `id != "" // '\n && ${email(g)}` })],
      ["the path in @collection spelled in capitals", (g) => listOutcome(m.pb, "users", { filter: `@COLLECTION.candidates.email != '${g}'` })],
      ["a relation from @request.auth", (g) => listOutcome(m.pb, "users", { filter: `@request.auth.primaryCompany.name != '${g}'` })],
    ];
    for (const [what, send] of variants) {
      const right = await send(secretCandidate.email.split("@")[0]!);
      const wrong = await send("zzzzz");
      expect({ what, right }).toEqual({ what, right: wrong });
    }
  });

  it("gives identical answers however the query string is written: repeated, `;`, plus, escaped, HEAD, by id", async () => {
    // the guard reads what PocketBase's list handler applies (the first `filter` and `sort` of url.ParseQuery, on the
    // route Go's mux matched) and judges every value besides
    const enc = encodeURIComponent;
    const token = m.pb.authStore.token;
    const list = async (path: string, method = "GET") => {
      const res = await fetch(`${pbUrl()}${path}`, { method, headers: { Authorization: token } });
      return { status: res.status, body: method === "HEAD" ? res.headers.get("content-length") : await res.text() };
    };
    const title = (g: string) => `id = '${a.manager.user.id}' && companies_via_managers.jobs_via_company.title != '${g}'`;
    const users = "/api/collections/users/records";
    const job = [a.job.title as string, "No such job"] as const;
    const variants: [string, (g: string) => Promise<unknown>, readonly [string, string]][] = [
      ["filter twice, the guess first", (g) => list(`${users}?filter=${enc(title(g))}&filter=${enc("id != ''")}`), job],
      ["filter twice, the guess second", (g) => list(`${users}?filter=${enc("id != ''")}&filter=${enc(title(g))}`), job],
      ["a `;` pair before the filter", (g) => list(`${users}?filter=x;&filter=${enc(title(g))}`), job],
      ["pairs split by `;`", (g) => list(`${users}?x=1;filter=${enc(title(g))}`), job],
      ["plus for the spaces", (g) => list(`${users}?${new URLSearchParams({ filter: title(g) }).toString()}`), job],
      ["the key percent-encoded", (g) => list(`${users}?%66ilter=${enc(title(g))}`), job],
      ["HEAD", (g) => list(`${users}?filter=${enc(title(g))}`, "HEAD"), job],
      ["a trailing slash", (g) => list(`${users}/?filter=${enc(title(g))}`), job],
      ["the collection by id", (g) => list(`/api/collections/_pb_users_auth_/records?filter=${enc(title(g))}`), job],
      [
        "the collection's name escaped, >=",
        (g) => list(`/api/collections/%75sers/records?filter=${enc(`id = '${a.manager.user.id}' && ${Y_CANDIDATES}.id >= '${g}'`)}`),
        [secretCandidate.id.slice(0, 3), "zzz"],
      ],
      ["sort twice, through the relation either way", (g) => list(`${users}?sort=${enc(`${g}companies_via_managers.jobs_via_company.title`)}&sort=id`), ["", "-"]],
      ["an expand beside the guess", (g) => list(`${users}?filter=${enc(title(g))}&expand=${enc("companies_via_managers.jobs_via_company")}`), job],
    ];
    for (const [how, send, [truth, lie]] of variants) {
      const right = await send(truth);
      const wrong = await send(lie);
      expect({ how, right }).toEqual({ how, right: wrong });
    }
  });

  it("gives identical answers to sorts that follow relations", async () => {
    for (const sort of [`${Y_CANDIDATES}.email`, `-${Y_CANDIDATES}.email`, "companies_via_managers.jobs_via_company.title", "primaryCompany.name"]) {
      const asc = await listOutcome(m.pb, "users", { sort });
      expect({ sort, status: asc.status }).toEqual({ sort, status: 400 });
    }
  });

  it("expands only what the caller may view: A's back-relations show M the shared company alone", async () => {
    const res = await m.pb.collection("users").getOne(a.manager.user.id, { expand: "companies_via_managers.jobs_via_company" });
    const companies = (res.expand?.companies_via_managers ?? []) as { id: string; name: string; expand?: Record<string, unknown> }[];
    expect(companies.map((c) => c.name)).toEqual(["Oracle X"]);
    expect(companies[0]!.expand?.jobs_via_company).toBeUndefined();
  });

  it("refuses a realtime subscription whose filter follows relations", async () => {
    const status = await subscribeStatus(m.pb.authStore.token, `users/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: `${Y_CANDIDATES}.email != 'x'` } }))}`);
    expect(status).toBe(400);
    // however the options are put: after another parameter, with their keys in another case
    const filter = `${Y_CANDIDATES}.email != 'x'`;
    for (const options of [`x=1&options=${encodeURIComponent(JSON.stringify({ query: { filter } }))}`, `options=${encodeURIComponent(JSON.stringify({ QUERY: { Filter: filter } }))}`]) {
      expect({ options, status: await subscribeStatus(m.pb.authStore.token, `users/${a.manager.user.id}?${options}`) }).toEqual({ options, status: 400 });
    }
    // a plain subscription still works
    expect(await subscribeStatus(m.pb.authStore.token, "users/*")).toBe(204);
  });

  it("keeps the filters the SPA uses working for their owners", async () => {
    const companies = await a.manager.pb.collection("companies").getFullList({ filter: a.manager.pb.filter("managers.id ?= {:u}", { u: a.manager.user.id }) });
    expect(companies.map((c) => c.id)).toContain(a.company.id);
    const videos = await a.manager.pb.collection("text_answers").getFullList({ filter: a.manager.pb.filter("answer.candidate = {:c}", { c: a.candidate.id }) });
    expect(videos).toHaveLength(1);
    const jobs = await a.manager.pb.collection("jobs").getFullList({ filter: a.manager.pb.filter("company = {:c}", { c: a.company.id }), sort: "-created,id" });
    expect(jobs.map((j) => j.id)).toEqual([a.job.id]);
  });
});

describe("the candidate's key", () => {
  it("is never in a manager's read of the candidate, its list, an expand or the review", async () => {
    const pb = a.manager.pb;
    const reads = [
      await pb.collection("candidates").getOne(a.candidate.id),
      ...(await pb.collection("candidates").getFullList({ filter: pb.filter("job = {:j}", { j: a.job.id }) })),
      (await pb.collection("answers").getFirstListItem(pb.filter("candidate = {:c}", { c: a.candidate.id }), { expand: "candidate" })).expand?.candidate,
      await pb.send(`/api/screenroom/reviews/${a.candidate.id}`, { method: "GET" }),
    ];
    for (const read of reads) expect(JSON.stringify(read)).not.toContain(secretCandidate.key);
  });

  it("cannot be chosen or changed by a manager", async () => {
    const chosen = "A".repeat(40);
    const made = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: uniqueEmail("chosen"), secret: chosen });
    const key = await keyOf(made.id);
    expect(key).not.toBe(chosen);
    expect(key).toMatch(/^[a-zA-Z0-9]{40}$/);
    await a.manager.pb.collection("candidates").update(made.id, { secret: chosen, linkReplaced: true });
    const stored = await (await superuser()).collection("candidates").getOne(made.id);
    expect(stored).toMatchObject({ secret: key, linkReplaced: false });
  });

  it("is what opens the interview: the record id does not, nor another candidate's key", async () => {
    const read = (key: string, path: string) => fetch(`${pbUrl()}/api/screenroom/interviews/${path}`, { headers: { "X-Candidate-Key": key } });
    expect((await read(secretCandidate.key, secretCandidate.key)).status).toBe(200);
    expect((await read(secretCandidate.id, secretCandidate.id)).status).toBe(404);
    const other = await world("oracle-other");
    const otherKey = (await keyOf(other.candidate.id))!;
    expect((await read(otherKey, secretCandidate.key)).status).toBe(404);
    // nor does the record id in the header open the candidate's records
    expect((await asCandidateKey(secretCandidate.id).collection("candidates").getOne(secretCandidate.id).catch((e: ClientResponseError) => e)).status).toBe(404);
    expect((await asCandidateKey(secretCandidate.key).collection("candidates").getOne(secretCandidate.id)).id).toBe(secretCandidate.id);
  });
});

describe("the answers route, to someone without the candidate's key", () => {
  it("answers the same whether the candidate exists or answered the question", async () => {
    const send = (candidate: string, question: string) =>
      fetch(`${pbUrl()}/api/screenroom/answers`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: randomId(), candidate, question, content: "Probe" }),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const answered = await send(a.candidate.id, a.text.question.id); // answered in beforeAll
    const open = await send(a.candidate.id, a.video.question.id);
    const unknown = await send("nosuchcandidat0", a.text.question.id);
    expect(answered).toEqual(open);
    expect(unknown).toEqual(open);
  });
});

describe("a link sent before candidates had keys", () => {
  it("mails nobody once a manager changed the candidate's address", async () => {
    const su = await superuser();
    const w = await world("oracle-legacy-moved");
    await su.collection("candidates").update(w.candidate.id, { linkReplaced: true });
    const managersInbox = uniqueEmail("managers-inbox");
    await w.manager.pb.collection("candidates").update(w.candidate.id, { email: managersInbox });
    expect((await su.collection("candidates").getOne(w.candidate.id)).linkReplaced).toBe(false);
    expect((await fetch(`${pbUrl()}/api/screenroom/interviews/${w.candidate.id}`)).status).toBe(404);
  });

  it("mails the candidate its new link and answers 410; nothing of the interview is given", async () => {
    const su = await superuser();
    const w = await world("oracle-legacy");
    // as the migration left a candidate invited before it: its old link carried the record id
    await su.collection("candidates").update(w.candidate.id, { linkReplaced: true });
    const res = await fetch(`${pbUrl()}/api/screenroom/interviews/${w.candidate.id}`, { headers: { "X-Candidate-Key": w.candidate.id } });
    expect(res.status).toBe(410);
    expect(await res.text()).not.toContain(w.job.title as string);
    // the new link went to the candidate's own address, and only there
    const key = (await keyOf(w.candidate.id))!;
    await expect
      .poll(async () => (await mailsTo(w.candidate.email as string)).flatMap(linksIn), { timeout: 30_000 })
      .toContain(`http://app.screenroom.test/candidates/${key}`);
    // a candidate without the flag (invited with a key) is simply not valid at its id
    const fresh = await createJobCandidate();
    expect((await fetch(`${pbUrl()}/api/screenroom/interviews/${fresh}`)).status).toBe(404);
  });
});

async function createJobCandidate() {
  const q = await createQuestion(a.manager.pb, a.company.id, "text");
  const job = await createJob(a.manager.pb, a.company.id, [q.question.id]);
  return (await a.manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("keyed") })).id;
}

async function subscribeStatus(token: string, subscription: string): Promise<number> {
  const controller = new AbortController();
  const stream = await fetch(`${pbUrl()}/api/realtime`, { signal: controller.signal });
  const reader = stream.body!.getReader();
  let text = "";
  while (!text.includes("PB_CONNECT") || !text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
  const clientId = JSON.parse(/data:(\{.*\})/.exec(text)![1]!).clientId as string;
  const res = await fetch(`${pbUrl()}/api/realtime`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: token },
    body: JSON.stringify({ clientId, subscriptions: [subscription] }),
  });
  controller.abort();
  return res.status;
}
