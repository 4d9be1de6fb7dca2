/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The hiring funnel's milestones a candidate's row did not keep yet (server/internal/analytics), each on the
// server's clock, so tests move them with the test clock as they move deadlines:
// - invitedAt: when the candidate was invited (the record's `created` is PocketBase's own clock).
// - linkOpenedAt: the first read of their interview link, recorded once, after the read has answered.
// - questionOpenedAt: the first question they opened ('View question'): the funnel's "started".
// Hidden: the records API neither shows nor takes them, for any client; the server writes them, the analytics
// routes read them. The existing rows get what is known: their invite, and their first opened question.

const FIELDS = ["invitedAt", "linkOpenedAt", "questionOpenedAt"];

migrate(
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    for (const name of FIELDS) candidates.fields.add(new DateField({ name, hidden: true }));
    app.save(candidates);

    app.db().newQuery("UPDATE candidates SET invitedAt = created WHERE invitedAt = ''").execute();
    app
      .db()
      .newQuery(
        `UPDATE candidates SET questionOpenedAt = COALESCE((SELECT min(p.openedAt) FROM question_progress p
           WHERE p.candidate = candidates.id AND p.openedAt != ''), '')
         WHERE questionOpenedAt = ''`,
      )
      .execute();
  },
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    for (const name of FIELDS) candidates.fields.removeByName(name);
    app.save(candidates);
  },
);
