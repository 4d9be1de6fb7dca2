// Security round three, finding 1: the realtime filter guard read a subscription differently from PocketBase. The
// guard took the first `options=` pair; PocketBase reads url.Parse(s).Query().Get("options"), and Go's query parsing
// drops every pair with a `;`. A co-manager B of A's company S put a decoy pair first and a filter through S's
// managers into A's other company Y second: `title != 'Private job'` got no event on a write to S, `!= 'No such job'`
// one, a bit per write about Y (and `>=` binary-searches any value). Now the guard reads each subscription with
// PocketBase's own code and refuses what could be read two ways, so a true and a false guess give B the same events,
// however the options are written. (List requests read their query string as PocketBase's list handler does: the
// variants are in filter-oracle.test.ts.)
import { beforeAll, describe, expect, it } from "vitest";
import { answerText, createCompany, signUp, uniqueEmail, world } from "../helpers";
import { acceptInvite } from "../support";
import { trySubscribe, type RealtimeEvent } from "./realtime";

const PRIVATE_JOB = "Private job";
const SALARY = "My salary expectation is ninety thousand";
const Y_CANDIDATES = "companies_via_managers.jobs_via_company.candidates_via_job";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof signUp>>;
let shared: { id: string }; // S: A's and B's
let own: { id: string }; // B's alone: its events end each observation
let writes = 0;

beforeAll(async () => {
  // A manages Y (a.company, with the private job, its candidate and a text answer) and S, which B manages too
  a = await world("rt-guard-y");
  await a.manager.pb.collection("jobs").update(a.job.id, { title: PRIVATE_JOB });
  await answerText(a.candidate.id, a.text.question.id, SALARY);
  shared = await createCompany(a.manager.pb, "Shared S");
  b = await signUp({ email: uniqueEmail("rt-guard-b") });
  const invite = await a.manager.pb.collection("manager_invites").create({ company: shared.id, email: b.user.email });
  expect((await acceptInvite(invite.id, b.pb.authStore.token)).status).toBe(200);
  own = await createCompany(b.pb, "B alone");
});

type Query = Record<string, string>;
interface Guess {
  what: string;
  topic: () => string;
  /** the write whose event the guess decides */
  write: () => Promise<unknown>;
  truth: string;
  lie: string;
  query: (guess: string) => Query;
}

const writeShared = () => a.manager.pb.collection("companies").update(shared.id, { website: `https://s${++writes}.example.com` });
const writeA = () => a.manager.pb.collection("users").update(a.manager.user.id, { firstName: `Ada${"a".repeat(++writes % 5)}` });
const THROUGH_S = "managers.companies_via_managers.jobs_via_company";

function guesses(): Guess[] {
  const fromS = { topic: () => `companies/${shared.id}`, write: writeShared };
  const fromA = { topic: () => `users/${a.manager.user.id}`, write: writeA };
  const candidateEmail = a.candidate.email as string;
  return [
    { what: "a job title by != (companies)", ...fromS, truth: PRIVATE_JOB, lie: "No such job", query: (g) => ({ filter: `${THROUGH_S}.title != '${g}'` }) },
    { what: "a candidate id by >= (companies)", ...fromS, truth: a.candidate.id.slice(0, 3), lie: "zzz", query: (g) => ({ filter: `managers.${Y_CANDIDATES}.id >= '${g}'` }) },
    { what: "a candidate e-mail by !~ (users)", ...fromA, truth: candidateEmail.split("@")[0]!, lie: "nobody", query: (g) => ({ filter: `${Y_CANDIDATES}.email !~ '${g}'` }) },
    {
      what: "a text answer by !~ (users)",
      ...fromA,
      truth: "ninety thousand",
      lie: "fifty thousand",
      query: (g) => ({ filter: `${Y_CANDIDATES}.answers_via_candidate.text_answers_via_answer.content !~ '${g}'` }),
    },
    { what: "a job title by != with a sort through it (companies)", ...fromS, truth: PRIVATE_JOB, lie: "No such job", query: (g) => ({ filter: `${THROUGH_S}.title != '${g}'`, sort: `-${THROUGH_S}.title` }) },
    { what: "a job title by != with an expand through it (companies)", ...fromS, truth: PRIVATE_JOB, lie: "No such job", query: (g) => ({ filter: `${THROUGH_S}.title != '${g}'`, expand: THROUGH_S }) },
    { what: "a sort alone, either way (companies)", ...fromS, truth: "", lie: "-", query: (g) => ({ sort: `${g}${THROUGH_S}.title` }) },
  ];
}

const enc = encodeURIComponent;
const DECOY = "options=%7B%22a%22%3A%22;%22%7D"; // {"a":";"}: a pair Go's query parsing drops
/** Every way of writing a subscription's options the parser accepts, from the topic and the query. */
const ways: [string, (topic: string, query: Query) => string][] = [
  ["options alone", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q }))}`],
  ["after another parameter", (t, q) => `${t}?x=1&options=${enc(JSON.stringify({ query: q }))}`],
  ["a `;` decoy pair first (the issue's request)", (t, q) => `${t}?${DECOY}&options=${enc(JSON.stringify({ query: q }))}`],
  ["a `;` pair of another name first", (t, q) => `${t}?a=;&options=${enc(JSON.stringify({ query: q }))}`],
  ["pairs split by `;`", (t, q) => `${t}?x=1;options=${enc(JSON.stringify({ query: q }))}`],
  ["a `;` after the options", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q }))};`],
  ["two options values, the guess second", (t, q) => `${t}?options=%7B%7D&options=${enc(JSON.stringify({ query: q }))}`],
  ["two options values, the guess first", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q }))}&options=%7B%7D`],
  ["plus for the spaces", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q })).replace(/%20/g, "+")}`],
  ["the options unencoded but for the spaces", (t, q) => `${t}?options=${JSON.stringify({ query: q }).replace(/ /g, "%20")}`],
  ["the key percent-encoded", (t, q) => `${t}?%6Fptions=${enc(JSON.stringify({ query: q }))}`],
  ["\"Query\" in capitals", (t, q) => `${t}?options=${enc(JSON.stringify({ Query: q }))}`],
  ["\"QUERY\" and \"FILTER\" in capitals", (t, q) => `${t}?options=${enc(JSON.stringify({ QUERY: Object.fromEntries(Object.entries(q).map(([k, v]) => [k.toUpperCase(), v])) }))}`],
  ["query twice in the JSON, the guess first", (t, q) => `${t}?options=${enc(`{"query":${JSON.stringify(q)},"query":{}}`)}`],
  ["query twice in the JSON, the guess second", (t, q) => `${t}?options=${enc(`{"query":{},"query":${JSON.stringify(q)}}`)}`],
  ["query and Query in the JSON", (t, q) => `${t}?options=${enc(`{"query":${JSON.stringify(q)},"Query":{"x":"1"}}`)}`],
  ["headers beside the query, as the SDK writes them", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q, headers: { x_any: "1" } }))}`],
  ["headers PocketBase cannot decode after the query", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q, headers: 1 }))}`],
  ["options in the topic, the SDK's empty options split after them", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q }))}&options=${enc(JSON.stringify({ query: {} }))}`],
  ["a `;` decoy in the topic, the SDK's options split after it", (t, q) => `${t}?a=1&${DECOY}&options=${enc(JSON.stringify({ query: q }))}`],
  ["a fragment after the options", (t, q) => `${t}?options=${enc(JSON.stringify({ query: q }))}#x`],
];

interface Observation {
  status: number;
  body: unknown;
  /** the data of every event on the guessed topic, in order */
  events: string[];
}

/**
 * What B observes with `right` and `wrong`, each on its own connection beside B's own company: the answers to both
 * subscriptions, then, when either was accepted, the events of `write` up to B's own write that ends the watch.
 */
async function observe(right: string, wrong: string, write: () => Promise<unknown>): Promise<[Observation, Observation]> {
  const sentinel = `companies/${own.id}`;
  const token = b.pb.authStore.token;
  const connections = [await trySubscribe(token, [right, sentinel]), await trySubscribe(token, [wrong, sentinel])] as const;
  const watch = async (c: (typeof connections)[number]): Promise<Observation> => {
    const seen: RealtimeEvent[] = [];
    if (c.status === 204) for (let event = await c.next(); event.event !== sentinel; event = await c.next()) seen.push(event);
    return { status: c.status, body: c.body, events: seen.map((e) => e.data) };
  };
  try {
    if (connections.every((c) => c.status !== 204)) return [await watch(connections[0]), await watch(connections[1])];
    await write();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await b.pb.collection("companies").update(own.id, { website: `https://b${++writes}.example.com` });
    return [await watch(connections[0]), await watch(connections[1])];
  } finally {
    for (const c of connections) c.close();
  }
}

describe("the realtime filter guard", () => {
  it("refuses the issue's request: a `;` decoy pair, then a filter through S's managers into A's other company", async () => {
    const filter = `${THROUGH_S}.title != '${PRIVATE_JOB}'`;
    const subscription = `companies/${shared.id}?options=%7B%22a%22%3A%22;%22%7D&options=${enc(JSON.stringify({ query: { filter } }))}`;
    const right = await trySubscribe(b.pb.authStore.token, [subscription]);
    right.close();
    expect({ status: right.status, body: right.body }).toMatchObject({ status: 400, body: { message: "Invalid subscription options." } });
    const [truth, lie] = await observe(subscription, subscription.replace(enc(PRIVATE_JOB), enc("No such job")), writeShared);
    expect(truth).toEqual(lie);
  });

  it("gives a true and a false guess the same events, for >=, !=, !~, sort and expand, from users and companies, however the options are written", async () => {
    for (const guess of guesses()) {
      for (const [how, write] of ways) {
        const topic = guess.topic();
        const [truth, lie] = await observe(write(topic, guess.query(guess.truth)), write(topic, guess.query(guess.lie)), guess.write);
        expect({ what: guess.what, how, truth }).toEqual({ what: guess.what, how, truth: lie });
        // nothing of Y in what B is sent, expanded or not
        for (const data of [...truth.events, ...lie.events]) expect(data, how).not.toMatch(new RegExp(`${PRIVATE_JOB}|${a.company.id}`));
      }
    }
  });

  it("keeps the subscriptions the SPA makes working", async () => {
    // the review screen's: its company's answers, filtered by candidate, as the SDK writes it
    const options = { query: { filter: `candidate = '${a.candidate.id}'` }, headers: {} };
    const spa = await trySubscribe(a.manager.pb.authStore.token, [`answers/*?options=${enc(JSON.stringify(options))}`, "companies/*"]);
    spa.close();
    expect(spa.status).toBe(204);
  });
});
