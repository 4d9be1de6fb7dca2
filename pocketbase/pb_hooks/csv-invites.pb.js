/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 1: invites from a CSV file. The SPA parses the file and sends its rows in chunks:
// POST /api/screenroom/jobs/{id}/invites/bulk  { importId, rows: [{ email, firstName?, lastName?, deadline? }] }
// -> 200 { results: [{ status: "created", candidate } | { status: "skipped" | "failed", reason, message }], created,
//    skipped, failed }, one result per row in the order sent.
// - Only a manager of the job's company (the candidates create rule); 404 otherwise, as for a job they cannot see.
// - A closed job (issue 19) refuses the whole import: 400 on `job`, nothing created.
// - One import (the same importId for the same job) is ONE action against the manager's invite rate limit
//   (decisions.md), and holds at most 1,000 distinct addresses; each address still draws on its mail budget.
// - The e-mails are queued (mail_queue, sent by pocketbase/mail_queue.go), so the request never waits on SMTP.

routerAdd(
  "POST",
  "/api/screenroom/jobs/{id}/invites/bulk",
  (e) => {
    const { findByIdOrNull, requestUser } = require(`${__hooks}/lib/util.js`);
    const { managesJob } = require(`${__hooks}/lib/pipeline.js`);
    const { requireInviteAction } = require(`${__hooks}/lib/throttle.js`);
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
    const results = rows.map((row) => inviteRow(e.app, job, row, seen));
    const count = (status) => results.filter((r) => r.status === status).length;
    return e.json(200, { results: results, created: count("created"), skipped: count("skipped"), failed: count("failed") });
  },
  $apis.requireAuth("users"),
);
