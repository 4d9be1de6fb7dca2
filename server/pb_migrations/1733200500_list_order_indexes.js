/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 20 point 3: jobs (company, created DESC, id) replaces jobs (company), and questions (company, created DESC, id)
// replaces questions (company). The jobs list and questions list routes (pocketbase/jobs_list.go, questions_list.go)
// read a company's records newest first; with (company) alone SQLite sorted them on every read (301 jobs at
// --scale=10). The wider indexes hand them over in the lists' order and still serve every read by company (the
// rules' joins, the job counts).

const CHANGES = [
  {
    collection: "jobs",
    old: { name: "idx_jobs_company", sql: "CREATE INDEX idx_jobs_company ON jobs (company)" },
    wide: { name: "idx_jobs_company_created", sql: "CREATE INDEX idx_jobs_company_created ON jobs (company, created DESC, id)" },
  },
  {
    collection: "questions",
    old: { name: "idx_questions_company", sql: "CREATE INDEX idx_questions_company ON questions (company)" },
    wide: {
      name: "idx_questions_company_created",
      sql: "CREATE INDEX idx_questions_company_created ON questions (company, created DESC, id)",
    },
  },
];

// an index's definition names it followed by a space or, quoted by PocketBase, a backtick
const without = (indexes, name) => indexes.filter((sql) => sql.indexOf(`${name} `) === -1 && sql.indexOf(`${name}\``) === -1);

migrate(
  (app) => {
    for (const { collection, old, wide } of CHANGES) {
      const record = app.findCollectionByNameOrId(collection);
      record.indexes = [...without(without(record.indexes, old.name), wide.name), wide.sql];
      app.save(record);
    }
  },
  (app) => {
    for (const { collection, old, wide } of CHANGES) {
      const record = app.findCollectionByNameOrId(collection);
      record.indexes = [...without(without(record.indexes, wide.name), old.name), old.sql];
      app.save(record);
    }
  },
);
