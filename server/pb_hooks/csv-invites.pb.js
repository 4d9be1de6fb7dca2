/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 1: invites from a CSV file. The SPA parses the file and sends its rows in chunks:
// POST /api/screenroom/jobs/{id}/invites/bulk  { importId, rows: [{ email, firstName?, lastName?, deadline? }] }
// -> 200 { results: [{ status: "created", candidate } | { status: "skipped" | "failed", reason, message }], created,
//    skipped, failed, hourlyCap }, one result per row in the order sent.
// - Only a manager of the job's company (the candidates create rule); 404 otherwise, as for a job they cannot see.
// - A closed job (issue 19) refuses the whole import: 400 on `job`, nothing created.
// - One import (the same importId for the same job) is ONE action against the manager's invite rate limit
//   (decisions.md), and holds at most 1,000 distinct addresses; each address still draws on its mail budget.
// - Candidates invited count against the manager's hourly cap, across imports and jobs (BULK_CANDIDATES_PER_HOUR,
//   lib/throttle.js takeBulkCandidates). An import is processed as far as the cap allows, as the 1,000-row cap leaves
//   the requests before it standing: rows that would be created past it fail ("hourly_cap") and are not created,
//   and a request that finds nothing left is refused whole, before anything else is spent (429, data.rows
//   {code "bulk_hourly_cap", params {limit, remaining, availableAt}}). Every answer says what is left:
//   hourlyCap {limit, remaining, availableAt}.
// - The e-mails are queued (mail_queue, sent by pocketbase/mail_queue.go), so the request never waits on SMTP.

routerAdd(
  "POST",
  "/api/screenroom/jobs/{id}/invites/bulk",
  (e) => {
    const { findByIdOrNull, requestUser } = require(`${__hooks}/lib/util.js`);
    const { managesJob } = require(`${__hooks}/lib/pipeline.js`);
    const { requireInviteAction, takeBulkCandidates, giveBackBulkCandidates, bulkCapMessage } = require(`${__hooks}/lib/throttle.js`);
    const { MAX_ROWS, IMPORT_ID, registerImport, forgetImport, inviteRow } = require(`${__hooks}/lib/bulk-invites.js`);
    const { normalizeEmail } = require(`${__hooks}/lib/util.js`);
    const user = requestUser(e);
    if (!user) throw new UnauthorizedError("Please sign in.");
    const jobId = e.request.pathValue("id");
    const job = findByIdOrNull(e.app, "jobs", jobId);
    if (!job || !managesJob(e.app, job.id, user.id)) throw new NotFoundError("This job does not exist.");
    // issue 19: nobody is invited to a closed job (the whole import is refused before any row)
    require(`${__hooks}/lib/job-lifecycle.js`).requireOpenForInvites(e.app, job.id);

    const body = e.requestInfo().body || {};
    const importId = String(body.importId || "");
    if (!IMPORT_ID.test(importId)) throw new BadRequestError("The import has no valid id.", {});
    const rows = body.rows;
    if (!Array.isArray(rows) || rows.length === 0) throw new BadRequestError("There are no rows to invite.", {});
    if (rows.length > MAX_ROWS) throw new BadRequestError(`An import holds at most ${MAX_ROWS} rows.`, {});

    // the manager's hourly cap: as many as the request could create, given back below where not used
    const grant = takeBulkCandidates(e.app, user.id, rows.length);
    const capOf = (a) => ({ limit: a.limit, remaining: a.remaining, availableAt: a.availableAt });
    if (grant.taken === 0) {
      const message = bulkCapMessage(grant);
      return e.json(429, { status: 429, message: message, data: { rows: { code: "bulk_hourly_cap", message: message, params: capOf(grant) } } });
    }
    const allowance = { left: grant.taken };
    let results;
    try {
      const emails = rows.map((row) => normalizeEmail(row && row.email)).filter(Boolean);
      if (registerImport(e.app, user.id, job.id, importId, emails)) {
        try {
          requireInviteAction(e.app, user.id);
        } catch (err) {
          forgetImport(e.app, user.id, job.id, importId);
          throw err;
        }
      }
      const seen = {};
      results = rows.map((row) => inviteRow(e.app, job, row, seen, allowance));
    } finally {
      giveBackBulkCandidates(e.app, user.id, grant.minute, allowance.left);
    }
    const count = (status) => results.filter((r) => r.status === status).length;
    const hourlyCap = capOf(takeBulkCandidates(e.app, user.id, 0));
    return e.json(200, { results: results, created: count("created"), skipped: count("skipped"), failed: count("failed"), hourlyCap: hourlyCap });
  },
  $apis.requireAuth("users"),
);
