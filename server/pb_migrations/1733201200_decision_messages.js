/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Decision messages: the e-mail a manager sends a candidate who was advanced or rejected, never sent automatically
// (server/internal/messages).
// - decision_templates: a company's own words for a kind (advance, reject) in one language, with the placeholders
//   {name} {job} {company}. One per company, kind and language; where there is none, the product's default text in
//   that language (the e-mail catalogs, server/internal/mail/locales) is used. The company's managers read and write
//   them; the company, kind and language of a saved template stay what they are (a change is a new template).
// - decision_messages: what was sent to a candidate, as it was sent (subject and body in the candidate's language),
//   when and by whom. Written by the server only (the send route and the bulk action); the job's company's managers
//   read it. One per candidate and kind: the unique index is what stops a second one, even from two requests at
//   once. Its candidate cascades, so an erasure, retention or withdrawal takes it with the candidate.
// - webhook events: candidate.messaged, added to the values the endpoints may ask for and the deliveries carry
//   (added to the values as they are, so another migration's additions stay).

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users" && @request.auth.verified = true';
const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;

const LANGUAGES = ["en", "de", "fr", "es", "nl", "pt", "it", "pl", "ar"];
const KINDS = ["advance", "reject"];
const EVENT = "candidate.messaged";

function withEvent(app, collection, field, add) {
  const found = app.findCollectionByNameOrId(collection);
  const select = found.fields.getByName(field);
  const values = select.values.filter((value) => value !== EVENT);
  select.values = add ? [...values, EVENT] : values;
  if (select.maxSelect > 1) select.maxSelect = select.values.length;
  app.save(found);
}

migrate(
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    const candidates = app.findCollectionByNameOrId("candidates");

    const templates = new Collection({
      type: "base",
      name: "decision_templates",
      listRule: manages("company.managers"),
      viewRule: manages("company.managers"),
      createRule: manages("company.managers"),
      updateRule:
        `${manages("company.managers")} && (@request.body.company:isset = false || @request.body.company = company)` +
        " && (@request.body.kind:isset = false || @request.body.kind = kind)" +
        " && (@request.body.language:isset = false || @request.body.language = language)",
      deleteRule: manages("company.managers"),
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "kind", type: "select", required: true, values: KINDS, maxSelect: 1 },
        { name: "language", type: "select", required: true, values: LANGUAGES, maxSelect: 1 },
        { name: "subject", type: "text", required: true, max: 200 },
        { name: "body", type: "text", required: true, max: 5000 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_decision_templates_one ON decision_templates (company, kind, language)"],
    });
    app.save(templates);

    const users = app.findCollectionByNameOrId("users");
    const messages = new Collection({
      type: "base",
      name: "decision_messages",
      listRule: manages("candidate.job.company.managers"),
      viewRule: manages("candidate.job.company.managers"),
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "kind", type: "select", required: true, values: KINDS, maxSelect: 1 },
        { name: "language", type: "select", required: true, values: LANGUAGES, maxSelect: 1 },
        // the placeholders put in: the candidate's name, the job's title and the company's name can make it longer
        // than the template
        { name: "subject", type: "text", required: true, max: 2000 },
        { name: "body", type: "text", required: true, max: 20000 },
        { name: "sentAt", type: "date", required: true },
        // who sent it; emptied if their account is deleted (the review then says "a former manager")
        { name: "sentBy", type: "relation", collectionId: users.id, maxSelect: 1, cascadeDelete: false },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_decision_messages_one ON decision_messages (candidate, kind)"],
    });
    app.save(messages);

    withEvent(app, "webhook_endpoints", "events", true);
    withEvent(app, "webhook_deliveries", "event", true);
  },
  (app) => {
    for (const name of ["decision_messages", "decision_templates"]) app.delete(app.findCollectionByNameOrId(name));
    withEvent(app, "webhook_deliveries", "event", false);
    withEvent(app, "webhook_endpoints", "events", false);
  },
);
