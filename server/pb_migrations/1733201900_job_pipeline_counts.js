/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The pipeline's counts (GET /api/screenroom/jobs/{id}/pipeline, pipeline_counts.go) and its pages' totals
// (pipeline_page.go) from a table kept in step with the candidates, as the jobs list's counts are
// (1733200400_job_status_counts.js), not a count over the job's candidates on every read: in a job of 30,000
// candidates the GROUP BY and the count(*) walked 30,000 index entries each, a few ms of SQLite a read.
// job_pipeline_counts holds one row per job, stored status and stored decision ('' when none), kept by triggers on
// candidates in the same transaction as the write, whoever writes. It is no collection: no records API, rule,
// filter, expand or realtime reaches it; only the routes read it, for the job's managers.

const TRIGGERS = ["candidates_pipeline_counts_ai", "candidates_pipeline_counts_ad", "candidates_pipeline_counts_au"];

const KEY = (row) => `${row}.job, coalesce(${row}.status, ''), coalesce(${row}.decision, '')`;
const MATCH = (row) =>
  `job = ${row}.job AND status = coalesce(${row}.status, '') AND decision = coalesce(${row}.decision, '')`;
const ADD = (row) =>
  `INSERT INTO job_pipeline_counts (job, status, decision, n) VALUES (${KEY(row)}, 1)
     ON CONFLICT (job, status, decision) DO UPDATE SET n = n + 1;`;
const REMOVE = (row) =>
  `UPDATE job_pipeline_counts SET n = n - 1 WHERE ${MATCH(row)};
   DELETE FROM job_pipeline_counts WHERE ${MATCH(row)} AND n <= 0;`;

migrate(
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    run(`CREATE TABLE job_pipeline_counts (
      job TEXT NOT NULL,
      status TEXT NOT NULL,
      decision TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (job, status, decision)
    ) WITHOUT ROWID`);
    run(`CREATE TRIGGER candidates_pipeline_counts_ai AFTER INSERT ON candidates BEGIN ${ADD("NEW")} END`);
    run(`CREATE TRIGGER candidates_pipeline_counts_ad AFTER DELETE ON candidates BEGIN ${REMOVE("OLD")} END`);
    run(`CREATE TRIGGER candidates_pipeline_counts_au AFTER UPDATE OF job, status, decision ON candidates
         WHEN OLD.job IS NOT NEW.job OR OLD.status IS NOT NEW.status OR OLD.decision IS NOT NEW.decision
         BEGIN ${REMOVE("OLD")} ${ADD("NEW")} END`);
    // the candidates stored before it
    run(`INSERT INTO job_pipeline_counts (job, status, decision, n)
         SELECT job, coalesce(status, ''), coalesce(decision, ''), count(*) FROM candidates
         GROUP BY job, coalesce(status, ''), coalesce(decision, '')`);
  },
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    for (const name of TRIGGERS) run(`DROP TRIGGER IF EXISTS ${name}`);
    run("DROP TABLE IF EXISTS job_pipeline_counts");
  },
);
