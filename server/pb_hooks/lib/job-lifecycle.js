/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 5: a job is open or closed (jobs.closedAt, migration 1733200000_job_lifecycle_retention.js).
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

// POST /api/screenroom/jobs/{id}/close and /reopen: a manager of the job's company (the jobs update rule) closes or
// reopens the job. 200 {closedAt} ('' once reopened). Closing a closed job keeps when it was first closed; reopening
// an open one changes nothing. Anyone else, and an unknown job, gets the same 404. Closing deletes nothing.
function setJobClosed(e, closing) {
  const { findByIdOrNull, requestUser } = require(`${__hooks}/lib/util.js`);
  const { nowText } = require(`${__hooks}/lib/clock.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  if (!requestUser(e)) throw notFound();
  const job = findByIdOrNull(e.app, "jobs", e.request.pathValue("id"));
  if (!job || !e.app.canAccessRecord(job, e.requestInfo(), job.collection().updateRule)) throw notFound();
  const closedAt = job.getString("closedAt");
  if (closing ? !closedAt : !!closedAt) {
    job.set("closedAt", closing ? nowText(e.app) : "");
    e.app.save(job);
  }
  return e.json(200, { closedAt: job.getString("closedAt") });
}


module.exports = { JOB_CLOSED_MESSAGE, INVITE_CLOSED_MESSAGE, isClosed, closedJob, requireOpenForInvites, setJobClosed };
