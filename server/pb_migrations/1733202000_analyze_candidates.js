/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The index on candidates (job, status, averageRating, id) came after the database's statistics (sqlite_stat1, which
// PRAGMA optimize writes) and had none of its own where the other indexes had theirs. SQLite's planner then took it for
// the most selective and, for a job's pipeline in its default order (newest first), read the job's candidates through
// it and sorted them all: 1.2 s for the first page of a job of 30,000. ANALYZE gives it its statistics (about a second
// at 333,000 candidates). Statistics only: nothing to undo.
migrate((app) => {
  app.db().newQuery("ANALYZE candidates").execute();
});
