/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The candidate's credential is a random key in a hidden field, no longer the record id (decisions.md, amendments
// after the security review; issue 13, finding 2). PocketBase evaluates `!=`, `>=`, `!~` and the like over related
// rows without those rows' rules, so a manager sharing any company with someone could binary-search, through
// `users?filter=...companies_via_managers.jobs_via_company.candidates_via_job.id >= '…'`, the id of a candidate of a
// company they do not manage: the id was the interview link. A hidden field cannot be filtered, sorted or expanded
// by anyone but a superuser, while the rules (trusted) still compare it with the `X-Candidate-Key` header.
//
// Links already sent carried the record id: those candidates get a key now and `linkReplaced`, and opening the old
// link mails the new one to the candidate's own address (pb_hooks/interview.pb.js), so whoever holds only the id
// gets nothing.

const OLD = "@request.headers.x_candidate_id";
const KEY = "@request.headers.x_candidate_key";
const RULES = ["listRule", "viewRule", "createRule", "updateRule", "deleteRule"];
const COLLECTIONS = ["companies", "jobs", "questions", "video_questions", "text_questions", "candidates", "answers", "video_answers", "text_answers"];

/** Each candidate clause compares the key with the candidate's `secret` where it compared the id before. */
function toKey(rule) {
  return rule
    .replace(/candidates_via_job\.id \?= @request\.headers\.x_candidate_id/g, `candidates_via_job.secret ?= ${KEY}`)
    .replace(/([ (])id = @request\.headers\.x_candidate_id/g, `$1secret = ${KEY}`)
    .replace(/\bcandidate = @request\.headers\.x_candidate_id/g, `candidate.secret = ${KEY}`)
    .replace(/@request\.headers\.x_candidate_id != ""/g, `${KEY} != ""`);
}

function toId(rule) {
  return rule
    .replace(/candidates_via_job\.secret \?= @request\.headers\.x_candidate_key/g, `candidates_via_job.id ?= ${OLD}`)
    .replace(/([ (])secret = @request\.headers\.x_candidate_key/g, `$1id = ${OLD}`)
    .replace(/\bcandidate\.secret = @request\.headers\.x_candidate_key/g, `candidate = ${OLD}`)
    .replace(/@request\.headers\.x_candidate_key != ""/g, `${OLD} != ""`);
}

function rewriteRules(app, rewrite, leftover) {
  for (const name of COLLECTIONS) {
    const collection = app.findCollectionByNameOrId(name);
    for (const rule of RULES) {
      // a Go *string: null for superusers only
      if (collection[rule] === null || collection[rule] === undefined) continue;
      collection[rule] = rewrite(String(collection[rule]));
      // a clause this migration does not know would keep the old credential: stop rather than leave it
      if (collection[rule].indexOf(leftover) !== -1) throw new Error(`${name}.${rule} still reads ${leftover}: ${collection[rule]}`);
    }
    app.save(collection);
  }
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

migrate(
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    // 40 characters of 62: 238 random bits
    candidates.fields.add(
      new TextField({ name: "secret", hidden: true, required: true, min: 40, max: 40, pattern: "^[a-zA-Z0-9]{40}$", autogeneratePattern: "[a-zA-Z0-9]{40}" }),
    );
    candidates.fields.add(new BoolField({ name: "linkReplaced", hidden: true }));
    app.save(candidates);

    for (const candidate of app.findAllRecords("candidates")) {
      candidate.set("secret", $security.randomStringWithAlphabet(40, ALPHABET));
      candidate.set("linkReplaced", true);
      app.saveNoValidate(candidate);
    }

    candidates.indexes = [...candidates.indexes, "CREATE UNIQUE INDEX idx_candidates_secret ON candidates (secret)"];
    app.save(candidates);

    rewriteRules(app, toKey, OLD);
  },
  (app) => {
    rewriteRules(app, toId, KEY);
    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.indexes = candidates.indexes.filter((sql) => sql.indexOf("idx_candidates_secret") === -1);
    candidates.fields.removeByName("secret");
    candidates.fields.removeByName("linkReplaced");
    app.save(candidates);
  },
);
