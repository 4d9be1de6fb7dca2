/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 20 point 3 (ten times the data): the view rules of companies, jobs, questions and their kind records lose
// their candidate clause. Every manager read paid for it: PocketBase joins every relation a rule names, whichever
// branch of an OR decides, and deduplicates afterwards, so a manager viewing a job joined all of the job's candidates
// (3,000 in the bench's pipeline job), the job detail's expanded questions joined every job using them and all of those
// jobs' candidates, the questions list's `jobs_via_questions` expand the same for every question, and a company view
// all of the company's candidates (33,000 at --scale=10).
//
// The candidate no longer reads any of these through the records API: since issue 13 its interview screens get the
// company's name, the job and its questions from GET /api/screenroom/interviews/{key} (pb_hooks/interview.pb.js), which
// makes the same access decision once, on the candidate record. What a candidate may read through the records API is
// now its own record (candidates.viewRule) and its own answers (answers, text_answers, video_answers without files):
// less than before, nothing more. The managers' and the invitee's clauses are unchanged.

const KEY = "@request.headers.x_candidate_key";
const CANDIDATE_CLAUSES = {
  companies: ` || (${KEY} != "" && jobs_via_company.candidates_via_job.secret ?= ${KEY})`,
  jobs: ` || (${KEY} != "" && candidates_via_job.secret ?= ${KEY})`,
  questions: ` || (${KEY} != "" && jobs_via_questions.candidates_via_job.secret ?= ${KEY})`,
  video_questions: ` || (${KEY} != "" && question.jobs_via_questions.candidates_via_job.secret ?= ${KEY})`,
  text_questions: ` || (${KEY} != "" && question.jobs_via_questions.candidates_via_job.secret ?= ${KEY})`,
};

migrate(
  (app) => {
    for (const [name, clause] of Object.entries(CANDIDATE_CLAUSES)) {
      const collection = app.findCollectionByNameOrId(name);
      const rule = String(collection.viewRule || "");
      // a rule another migration changed since: stop rather than guess what to keep
      if (!rule.endsWith(clause)) throw new Error(`${name}.viewRule does not end with the candidate clause "${clause}": ${rule}`);
      collection.viewRule = rule.slice(0, rule.length - clause.length);
      app.save(collection);
    }
  },
  (app) => {
    for (const [name, clause] of Object.entries(CANDIDATE_CLAUSES)) {
      const collection = app.findCollectionByNameOrId(name);
      collection.viewRule = String(collection.viewRule || "") + clause;
      app.save(collection);
    }
  },
);
