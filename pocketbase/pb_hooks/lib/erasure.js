/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Deleting one candidate from every store (decisions.md "Data lifetime"). MINIMAL VERSION written for issue 19
// point 5 (retention); issue 19 point 6 (export and erasure) writes the full one of this same file, which replaces
// it at the merge. Retention deletes only through eraseCandidate.
//
// One transaction: the candidate record, whose deletion PocketBase cascades (relation fields with cascadeDelete) to
// its answers and their video/text kinds (files removed from the storage once committed; the transcript lives on the
// video_answers row, the search index rows go with the kinds by the triggers of migration 1733100000_answer_search),
// ratings, comments, share links, webhook deliveries, question progress and staged takes (their parts on disk by
// the staged_takes delete hook, history.pb.js); and the mail_queue rows of its invitation: addressed to its e-mail
// and carrying its interview key (the link) in their text or HTML. The decision is a field of the candidate.

/**
 * Deletes candidate `candidateId` and everything it owns. Returns false when there is no such candidate (nothing
 * done), true once it is deleted.
 */
function eraseCandidate(app, candidateId) {
  let erased = false;
  app.runInTransaction((txApp) => {
    let candidate;
    try {
      candidate = txApp.findRecordById("candidates", candidateId);
    } catch (_) {
      return;
    }
    const email = candidate.getString("email");
    const key = candidate.getString("secret");
    if (email && key) {
      txApp
        .db()
        .newQuery("DELETE FROM mail_queue WHERE lower([[to]]) = lower({:to}) AND (instr(COALESCE([[text]], ''), {:key}) > 0 OR instr(COALESCE(html, ''), {:key}) > 0)")
        .bind({ to: email, key: key })
        .execute();
    }
    txApp.delete(candidate);
    erased = true;
  });
  return erased;
}

module.exports = { eraseCandidate };
