/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Lists are for managers; the candidate and the invitee only *view* (decisions.md "Access model": a candidate views
// the company, the job and the questions of its job; an invitee views its invited company). The list rules had
// the view rules' candidate and invitee clauses too, which cost every manager list a join across all of the
// company's candidates (jobs_via_company.candidates_via_job...) and its invites, to dedupe afterwards: the company
// home's jobs list paid for 3,000 candidate rows at the benchmark's size (issue 8). View rules are unchanged, so
// expands and single reads work as before for everyone.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users"';
const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;

const MANAGER_LISTS = {
  companies: manages("managers"),
  jobs: manages("company.managers"),
  questions: manages("company.managers"),
  video_questions: manages("question.company.managers"),
  text_questions: manages("question.company.managers"),
};

migrate(
  (app) => {
    for (const [name, rule] of Object.entries(MANAGER_LISTS)) {
      const collection = app.findCollectionByNameOrId(name);
      collection.listRule = rule;
      app.save(collection);
    }
  },
  (app) => {
    // back to the view rules, as the initial schema had them
    for (const name of Object.keys(MANAGER_LISTS)) {
      const collection = app.findCollectionByNameOrId(name);
      collection.listRule = collection.viewRule;
      app.save(collection);
    }
  },
);
