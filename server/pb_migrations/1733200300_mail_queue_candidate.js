/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 6: each queued e-mail names the candidate it is about (`mail_queue.candidate`, deleted with them),
// so an erasure, the retention cron or a manager's deletion takes the candidate's e-mails by an index, not by
// scanning every queued e-mail's text for their key, and the e-mail of a link that was replaced (a legacy link, which
// carried the record id) goes with them too. The e-mails queued before are matched to their candidate here: the
// address and the key in the text (or, for a legacy link, the id). lib/erasure.js still scans the few rows no
// candidate could be matched to.

migrate(
  (app) => {
    const queue = app.findCollectionByNameOrId("mail_queue");
    const candidates = app.findCollectionByNameOrId("candidates");
    queue.fields.add(new RelationField({ name: "candidate", collectionId: candidates.id, maxSelect: 1, cascadeDelete: true }));
    queue.indexes = [...queue.indexes, "CREATE INDEX idx_mail_queue_candidate ON mail_queue (candidate)"];
    app.save(queue);
    // by address first (an index for this statement only: the candidates' own index leads with the job)
    app.db().newQuery("CREATE INDEX IF NOT EXISTS tmp_candidates_email ON candidates (email)").execute();
    app
      .db()
      .newQuery(
        `UPDATE mail_queue SET candidate = coalesce((
           SELECT c.id FROM candidates c
           WHERE c.email = mail_queue."to" AND (
             (c.secret != '' AND (instr(mail_queue.text, c.secret) > 0 OR instr(mail_queue.html, c.secret) > 0))
             OR instr(mail_queue.text, '/candidates/' || c.id) > 0 OR instr(mail_queue.html, '/candidates/' || c.id) > 0)
           LIMIT 1), '')
         WHERE candidate = ''`,
      )
      .execute();
    app.db().newQuery("DROP INDEX tmp_candidates_email").execute();
  },
  (app) => {
    const queue = app.findCollectionByNameOrId("mail_queue");
    queue.fields.removeByName("candidate");
    queue.indexes = queue.indexes.filter((sql) => sql.indexOf("idx_mail_queue_candidate") === -1);
    app.save(queue);
  },
);
