/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 5 (the JS twin of internal/jobs/job_lifecycle.go, for the JS hooks still calling it): a job is open or closed (jobs.closedAt, migration 1733200000_job_lifecycle_retention.js).
// Closing deletes nothing. While a job is closed its candidates' links show a closed page and refuse answers, parts,
// consent and openings (lib/interview-rules.js, code job_closed), no candidate is invited to it (a single invite,
// the CSV import, a resent link) and no reminder goes out (lib/candidate-mails.js). Reopening undoes all of it.

const JOB_CLOSED_MESSAGE = "This job was closed.";
const INVITE_CLOSED_MESSAGE = "This job is closed. Reopen it to invite candidates.";

/** Whether a jobs record is closed. */
function isClosed(job) {
  return !!(job && job.getString("closedAt"));
}

/** The job of id `jobId` when it is closed, else null (an unknown job is not this rule's to refuse). */
function closedJob(app, jobId) {
  if (!jobId) return null;
  try {
    const job = app.findRecordById("jobs", jobId);
    return isClosed(job) ? job : null;
  } catch (_) {
    return null;
  }
}

/** 400 on the `job` field when the job of id `jobId` is closed: nobody is invited to a closed job. */
function requireOpenForInvites(app, jobId) {
  if (closedJob(app, jobId)) {
    throw require(`${__hooks}/lib/util.js`).fieldError("job", INVITE_CLOSED_MESSAGE, "validation_job_closed");
  }
}

module.exports = { JOB_CLOSED_MESSAGE, INVITE_CLOSED_MESSAGE, isClosed, closedJob, requireOpenForInvites };
