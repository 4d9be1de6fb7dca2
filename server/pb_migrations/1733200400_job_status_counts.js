/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 20 point 3: the jobs list's counts (GET /api/screenroom/companies/{id}/job-counts, job_counts.go) from a table
// kept in step with the candidates, not a GROUP BY over them on every read. At ten times the bench data (300 jobs,
// 33,000 candidates in one company) the GROUP BY walked every candidate's index entry: 3-4 ms of SQLite a read, 65 ms
// p95 under 10 readers. job_status_counts holds one row per job and stored status ('' for a candidate the server
// has not touched yet: the route counts it as invited), kept by triggers on candidates in the same transaction as the
// write, whoever writes (the records API, the hooks, a cascade delete of a job or company, a superuser, the bench
// seed's copies). It is no collection: no records API, rule, filter, expand or realtime reaches it; only the route
// reads it, for the company's managers.

const TRIGGERS = ["candidates_counts_ai", "candidates_counts_ad", "candidates_counts_au"];

const ADD = (row) =>
  `INSERT INTO job_status_counts (job, status, n) VALUES (${row}.job, coalesce(${row}.status, ''), 1)
     ON CONFLICT (job, status) DO UPDATE SET n = n + 1;`;
const REMOVE = (row) =>
  `UPDATE job_status_counts SET n = n - 1 WHERE job = ${row}.job AND status = coalesce(${row}.status, '');
   DELETE FROM job_status_counts WHERE job = ${row}.job AND status = coalesce(${row}.status, '') AND n <= 0;`;

migrate(
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    run(`CREATE TABLE job_status_counts (
      job TEXT NOT NULL,
      status TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (job, status)
    ) WITHOUT ROWID`);
    run(`CREATE TRIGGER candidates_counts_ai AFTER INSERT ON candidates BEGIN ${ADD("NEW")} END`);
    run(`CREATE TRIGGER candidates_counts_ad AFTER DELETE ON candidates BEGIN ${REMOVE("OLD")} END`);
    run(`CREATE TRIGGER candidates_counts_au AFTER UPDATE OF job, status ON candidates
         WHEN OLD.job IS NOT NEW.job OR OLD.status IS NOT NEW.status
         BEGIN ${REMOVE("OLD")} ${ADD("NEW")} END`);
    // the candidates stored before it
    run(`INSERT INTO job_status_counts (job, status, n)
         SELECT job, coalesce(status, ''), count(*) FROM candidates GROUP BY job, coalesce(status, '')`);
  },
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    for (const name of TRIGGERS) run(`DROP TRIGGER IF EXISTS ${name}`);
    run("DROP TABLE IF EXISTS job_status_counts");
  },
);
