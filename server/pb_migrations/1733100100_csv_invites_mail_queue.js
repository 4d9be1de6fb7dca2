/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 1: invites from a CSV file, and a queue of outgoing mail.
// - candidates.firstName / lastName: optional, from the CSV's columns (a single invite may set them too).
// - mail_queue: e-mails the hooks write and the Go main sends at a steady pace with retries (pocketbase/mail_queue.go),
//   so a request that invites 1,000 people never waits on SMTP. Every rule is null: only superusers (and the server)
//   read or write it, through any API (records, batch, realtime). It holds recipients' addresses and interview links.

migrate(
  (app) => {
    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.add(new TextField({ name: "firstName", max: 100 }));
    candidates.fields.add(new TextField({ name: "lastName", max: 100 }));
    app.save(candidates);

    const queue = new Collection({
      type: "base",
      name: "mail_queue",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { type: "email", name: "to", required: true },
        { type: "text", name: "subject", required: true, max: 500 },
        { type: "text", name: "html", max: 200000 },
        { type: "text", name: "text", max: 200000 },
        // pending until sent; failed after MAIL_QUEUE_MAX_ATTEMPTS attempts
        { type: "select", name: "status", required: true, maxSelect: 1, values: ["pending", "sent", "failed"] },
        { type: "number", name: "attempts", min: 0, onlyInt: true },
        { type: "date", name: "nextAttemptAt" },
        { type: "text", name: "lastError", max: 2000 },
        { type: "date", name: "sentAt" },
        { type: "autodate", name: "created", onCreate: true },
        { type: "autodate", name: "updated", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_mail_queue_due ON mail_queue (status, nextAttemptAt)"],
    });
    app.save(queue);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("mail_queue"));
    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.removeByName("firstName");
    candidates.fields.removeByName("lastName");
    app.save(candidates);
  },
);
