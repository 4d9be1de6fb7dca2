/// <reference path="../../.cache/pocketbase/types.d.ts" />
// A pipeline page filtered by status and sorted by rating (pipeline_page.go: ORDER BY averageRating, id) read the
// job's whole (job, averageRating) index, kept the status's rows and sorted them again by rating and id in a
// temporary b-tree: 47 ms p95 for the completed of a job of 30,000 candidates. This index gives that order directly.
migrate(
  (app) => {
    app.db().newQuery("CREATE INDEX idx_candidates_job_status_rating ON candidates (job, status, averageRating, id)").execute();
  },
  (app) => {
    app.db().newQuery("DROP INDEX IF EXISTS idx_candidates_job_status_rating").execute();
  },
);
