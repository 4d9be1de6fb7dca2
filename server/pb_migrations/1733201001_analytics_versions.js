/// <reference path="../../.cache/pocketbase/types.d.ts" />
// A number per job that changes whenever anything its analytics count changes (server/internal/analytics): a
// candidate's milestone, status, decision or reminder, an answer, a question opened, the job's questions. The
// analytics routes keep each job's figures with the number they were computed at and compute them again only once
// it moved, so a company's figures at 30,000 candidates read again only the jobs that changed. Triggers bump it in
// the same transaction as the write, whoever writes (the records API, the hooks' raw UPDATEs, a superuser, the bench
// seed's copies). It is no collection: no records API, rule, filter, expand or realtime reaches it.

const TRIGGERS = [
  "analytics_version_candidates_ai",
  "analytics_version_candidates_au",
  "analytics_version_candidates_ad",
  "analytics_version_answers_ai",
  "analytics_version_answers_ad",
  "analytics_version_progress_ai",
  "analytics_version_progress_au",
  "analytics_version_progress_ad",
  "analytics_version_jobs_au",
  "analytics_version_jobs_ad",
];

const BUMP = (job, when = "") =>
  `INSERT INTO analytics_versions (job, version) SELECT ${job}, 1 WHERE ${job} IS NOT NULL ${when}
     ON CONFLICT (job) DO UPDATE SET version = version + 1;`;

const JOB_OF = (candidate) => `(SELECT c.job FROM candidates c WHERE c.id = ${candidate})`;

// what the figures read of a candidate (a rating or an e-mail edit changes none of it)
const COUNTED = [
  "job",
  "status",
  "decision",
  "consentedAt",
  "invitedAt",
  "linkOpenedAt",
  "questionOpenedAt",
  "completedAt",
  "remindedEarlyAt",
  "remindedLateAt",
];

migrate(
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    run(`CREATE TABLE analytics_versions (
      job TEXT PRIMARY KEY NOT NULL,
      version INTEGER NOT NULL
    ) WITHOUT ROWID`);
    run(`CREATE TRIGGER analytics_version_candidates_ai AFTER INSERT ON candidates BEGIN ${BUMP("NEW.job")} END`);
    // a job's delete takes its candidates with it: no number is kept for a job that is gone
    run(`CREATE TRIGGER analytics_version_candidates_ad AFTER DELETE ON candidates
         BEGIN ${BUMP("OLD.job", "AND EXISTS (SELECT 1 FROM jobs j WHERE j.id = OLD.job)")} END`);
    run(`CREATE TRIGGER analytics_version_candidates_au AFTER UPDATE ON candidates
         WHEN ${COUNTED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(" OR ")}
         BEGIN ${BUMP("NEW.job")} ${BUMP("OLD.job", "AND OLD.job IS NOT NEW.job")} END`);
    run(`CREATE TRIGGER analytics_version_answers_ai AFTER INSERT ON answers BEGIN ${BUMP(JOB_OF("NEW.candidate"))} END`);
    run(`CREATE TRIGGER analytics_version_answers_ad AFTER DELETE ON answers BEGIN ${BUMP(JOB_OF("OLD.candidate"))} END`);
    run(`CREATE TRIGGER analytics_version_progress_ai AFTER INSERT ON question_progress
         WHEN NEW.openedAt != '' BEGIN ${BUMP(JOB_OF("NEW.candidate"))} END`);
    run(`CREATE TRIGGER analytics_version_progress_au AFTER UPDATE ON question_progress
         WHEN OLD.openedAt IS NOT NEW.openedAt OR OLD.candidate IS NOT NEW.candidate OR OLD.question IS NOT NEW.question
         BEGIN ${BUMP(JOB_OF("NEW.candidate"))} END`);
    run(`CREATE TRIGGER analytics_version_progress_ad AFTER DELETE ON question_progress
         WHEN OLD.openedAt != '' BEGIN ${BUMP(JOB_OF("OLD.candidate"))} END`);
    run(`CREATE TRIGGER analytics_version_jobs_au AFTER UPDATE ON jobs
         WHEN OLD.questions IS NOT NEW.questions BEGIN ${BUMP("NEW.id")} END`);
    run(`CREATE TRIGGER analytics_version_jobs_ad AFTER DELETE ON jobs BEGIN DELETE FROM analytics_versions WHERE job = OLD.id; END`);
  },
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    for (const name of TRIGGERS) run(`DROP TRIGGER IF EXISTS ${name}`);
    run("DROP TABLE IF EXISTS analytics_versions");
  },
);
