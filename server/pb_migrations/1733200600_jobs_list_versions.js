/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 20 point 3: a number per company that changes whenever one of its jobs does, so the jobs list route
// (jobs_list.go) can keep the list it last answered and answer it again while the number stands. Triggers on jobs
// bump it in the same transaction as the write, whoever writes (the records API, the hooks, a cascade delete of a
// company, a superuser, the bench seed's copies, raw SQL). It is no collection: no records API, rule, filter, expand
// or realtime reaches it; only the route reads it, after its access check.

const TRIGGERS = ["jobs_list_version_ai", "jobs_list_version_au", "jobs_list_version_ad"];

const BUMP = (company, when = "") =>
  `INSERT INTO jobs_list_versions (company, version) SELECT ${company}, 1 WHERE ${company} IS NOT NULL ${when}
     ON CONFLICT (company) DO UPDATE SET version = version + 1;`;

migrate(
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    run(`CREATE TABLE jobs_list_versions (
      company TEXT PRIMARY KEY NOT NULL,
      version INTEGER NOT NULL
    ) WITHOUT ROWID`);
    run(`CREATE TRIGGER jobs_list_version_ai AFTER INSERT ON jobs BEGIN ${BUMP("NEW.company")} END`);
    run(`CREATE TRIGGER jobs_list_version_ad AFTER DELETE ON jobs BEGIN ${BUMP("OLD.company")} END`);
    // a job moved to another company changes both lists
    run(`CREATE TRIGGER jobs_list_version_au AFTER UPDATE ON jobs BEGIN
         ${BUMP("NEW.company")} ${BUMP("OLD.company", "AND OLD.company IS NOT NEW.company")} END`);
  },
  (app) => {
    const run = (sql) => app.db().newQuery(sql).execute();
    for (const name of TRIGGERS) run(`DROP TRIGGER IF EXISTS ${name}`);
    run("DROP TABLE IF EXISTS jobs_list_versions");
  },
);
