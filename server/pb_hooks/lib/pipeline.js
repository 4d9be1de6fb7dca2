/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// What is left of the pipeline's JS while its last caller (csv-invites.pb.js) is ported; the
// pipeline itself is in Go (internal/pipeline), and "manages this job" is platform.ManagesJob.

/**
 * Whether `userId` manages the company of job `jobId` (one indexed read: the job by id, its company by id, the
 * company's managers array).
 */
function managesJob(app, jobId, userId) {
  if (!jobId || !userId) return false;
  const row = new DynamicModel({ n: 0 });
  try {
    app
      .db()
      .newQuery(
        `SELECT count(*) AS n FROM jobs j JOIN companies c ON c.id = j.company
         WHERE j.id = {:job} AND EXISTS (SELECT 1 FROM json_each(c.managers) m WHERE m.value = {:user})`,
      )
      .bind({ job: jobId, user: userId })
      .one(row);
  } catch (_) {
    return false;
  }
  return row.n > 0;
}

module.exports = {
  managesJob,
};
