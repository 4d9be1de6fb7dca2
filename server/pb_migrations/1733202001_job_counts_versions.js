/// <reference path="../../.cache/pocketbase/types.d.ts" />
// A number per company that changes whenever one of its jobs' counts does (job_status_counts, kept by triggers on
// candidates), so the jobs list's counts route (jobs/job_counts.go) can keep the counts it last answered and answer
// them again while the number stands, as the jobs list does with jobs_list_versions. At a hundred times the bench
// data (3,002 jobs in one company) summing the counts' 9,000 rows and writing 240 KB cost 7 ms of a core on every
// read of the company home. Triggers on job_status_counts bump it in the same transaction as the candidate's write,
// whoever writes. It is no collection: only the route reads it, after its access check.

const TRIGGERS = ["job_counts_version_ai", "job_counts_version_au", "job_counts_version_ad"];

const BUMP = (job) =>
  `INSERT INTO job_counts_versions (company, version) SELECT company, 1 FROM jobs WHERE id = ${job}
     ON CONFLICT (company) DO UPDATE SET version = version + 1;`;

migrate(
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    run(`CREATE TABLE job_counts_versions (
      company TEXT PRIMARY KEY NOT NULL,
      version INTEGER NOT NULL
    ) WITHOUT ROWID`);
    run(`CREATE TRIGGER job_counts_version_ai AFTER INSERT ON job_status_counts BEGIN ${BUMP("NEW.job")} END`);
    run(`CREATE TRIGGER job_counts_version_ad AFTER DELETE ON job_status_counts BEGIN ${BUMP("OLD.job")} END`);
    run(`CREATE TRIGGER job_counts_version_au AFTER UPDATE ON job_status_counts BEGIN ${BUMP("NEW.job")} END`);
  },
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    for (const name of TRIGGERS) run(`DROP TRIGGER IF EXISTS ${name}`);
    run("DROP TABLE IF EXISTS job_counts_versions");
  },
);
