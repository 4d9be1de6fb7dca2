/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Erasure (issue 19 points 5 and 6; decisions.md "Data lifetime"): a candidate removed from every store.
// - The candidate row, and through PocketBase's cascades everything that hangs off it: answers with their video and
//   text records (files included: PocketBase removes a deleted record's storage folder, local disk or S3, once the
//   transaction commits), transcripts and segments (fields of video_answers), ratings, comments, share links,
//   webhook deliveries, question progress and staged takes (whose parts, outside PocketBase's storage, go with
//   their row: history.pb.js). The search index (answer_search, answer_search_docs) is kept by SQLite triggers on
//   video_answers and text_answers (migration 1733100000_answer_search.js), so it follows the cascade. The decision,
//   rating average and accommodations are fields of the candidate row.
// - The outgoing mail about them (mail_queue): every queued e-mail that names them (mail_queue.candidate, a cascade),
//   and an older e-mail no candidate was matched to that carries their interview key or record id. Another
//   candidate's e-mails to the same address (another job) name the other candidacy and stay.
// - PocketBase's request log (the auxiliary database) lines whose URL or data hold their id or key, after the
//   transaction (a log line is not the product's data, and the log database is not the main one).
// - An audit entry (action, actor, company, candidate id: no e-mail, no name), in the same transaction, written by
//   the candidate's delete itself (pocketbase/candidate_removal_audit.go, which every delete of a candidate goes
//   through), with the action and actor the caller gives.
// Everything but the log lines commits together or not at all. Server-side only: the `?deleteAnswers=true`
// confirmation of history.pb.js guards the records API, the erase route asks its own confirmation in the SPA.

/**
 * Erases candidate `candidateId`. Its audit entry says `options.action` ("erase" or "retention_erase"), by
 * `options.actor` (a user id, or empty for the retention cron). Returns { answers, videos, mails } (what went), or
 * null when there is no such candidate.
 */
function eraseCandidate(app, candidateId, options) {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const opts = options || {};
  let result = null;
  let secret = "";
  app.runInTransaction((txApp) => {
    const candidate = findByIdOrNull(txApp, "candidates", candidateId);
    if (!candidate) return;
    secret = candidate.getString("secret");

    const count = (sql) => {
      const row = new DynamicModel({ n: 0 });
      txApp.db().newQuery(sql).bind({ c: candidate.id }).one(row);
      return row.n;
    };
    const answers = count("SELECT count(*) AS n FROM answers WHERE candidate = {:c}");
    const videos = count("SELECT count(*) AS n FROM video_answers v JOIN answers a ON a.id = v.answer WHERE a.candidate = {:c}");

    // their e-mails go with them by the relation's cascade; the e-mails queued before it existed that its migration
    // could not match to anyone (1733200300_mail_queue_candidate.js) by their key or id in the text
    const mails = count("SELECT count(*) AS n FROM mail_queue WHERE candidate = {:c}");
    // (an empty key would match every e-mail: only a key that is set)
    const byKey = secret ? "html ~ {:secret} || text ~ {:secret} || " : "";
    const unmatched = txApp.findRecordsByFilter(
      "mail_queue",
      `candidate = '' && (${byKey}subject ~ {:id} || html ~ {:id} || text ~ {:id})`,
      "",
      0,
      0,
      { secret: secret, id: candidate.id },
    );
    for (const mail of unmatched) txApp.delete(mail);

    // the candidate's delete writes its one audit entry, in this transaction (candidate_removal_audit.go)
    $screenroomDeleteCandidate(txApp, candidate, opts.action || "delete", opts.actor || "");
    result = { answers: answers, videos: videos, mails: mails + unmatched.length };
  });
  if (result) forgetLogLines(app, candidateId, secret);
  return result;
}

/** Removes PocketBase's request log lines that name the candidate's id or key; a failure is logged, never thrown. */
function forgetLogLines(app, candidateId, secret) {
  try {
    const needles = [candidateId, secret].filter((s) => !!s);
    for (const needle of needles) {
      app
        .auxDB()
        .newQuery("DELETE FROM _logs WHERE instr(data, {:needle}) > 0 OR instr(message, {:needle}) > 0")
        .bind({ needle: needle })
        .execute();
    }
  } catch (err) {
    app.logger().warn("erasure: the request log could not be cleaned", "error", String(err));
  }
}

/** The audit log's only allowed update: PocketBase emptying `actor` because that account was deleted. */
function auditChangeAllowed(app, record) {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const original = record.original();
  for (const field of ["company", "action", "candidateId"]) {
    if (record.getString(field) !== original.getString(field)) return false;
  }
  if (record.getString("created") !== original.getString("created")) return false;
  if (record.getString("actor") === original.getString("actor")) return false;
  return record.getString("actor") === "" && !findByIdOrNull(app, "users", original.getString("actor"));
}

module.exports = { eraseCandidate, auditChangeAllowed };
