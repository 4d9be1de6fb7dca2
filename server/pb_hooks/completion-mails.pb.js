/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 17 point 5: when a candidate becomes completed (lib/pipeline.js sets status "completed" inside the
// transaction that stores its last answer), the receipt to the candidate and the notice to the job's managers, once
// (lib/candidate-mails.js sendCompletionMails stamps completionMailedAt). After-success hooks run once the
// transaction has committed, so the e-mails never go for an answer that was rolled back, and never slow or fail it:
// whatever goes wrong here is logged, as the answer is already stored.

// Every way an answer is stored creates an `answers` record: the answers route (a whole file, a text, a staged
// take), a superuser's records or batch API.
onRecordAfterCreateSuccess((e) => {
  e.next();
  try {
    require(`${__hooks}/lib/candidate-mails.js`).sendCompletionMails(e.app, e.record.getString("candidate"));
  } catch (err) {
    e.app.logger().error("completion mails failed", "candidate", e.record.getString("candidate"), "error", String(err));
  }
}, "answers");

// A job's questions changed (one taken out): candidates who had answered all the others are now completed
// (review-workflow.pb.js recomputes their status in the same save).
onRecordAfterUpdateSuccess((e) => {
  e.next();
  try {
    require(`${__hooks}/lib/candidate-mails.js`).sendJobCompletionMails(e.app, e.record.id);
  } catch (err) {
    e.app.logger().error("completion mails failed", "job", e.record.id, "error", String(err));
  }
}, "jobs");
