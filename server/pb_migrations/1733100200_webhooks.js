/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 2: webhooks (hooks and routes: pb_hooks/webhooks.pb.js, lib/webhooks.js; the sender: the Go main's
// pocketbase/webhooks.go).
// - webhook_endpoints: a company's receivers: an https URL (http only for loopback, and only where
//   WEBHOOKS_ALLOW_PRIVATE_TARGETS=1 allows it), the events wanted, enabled, and a secret in the Standard Webhooks
//   form `whsec_<base64>` made by the server and returned once, in the create response. The secret is hidden: no
//   response, filter or sort reaches it (a hidden field is unknown to non-superusers' filters), and the Go sender
//   reads it from the database.
// - webhook_deliveries: one row per event and endpoint, written by the server only (the hooks record them, the Go
//   sender works them, the 'send again' route puts a finished one back in the queue). Its `candidate` cascades, so
//   erasing a candidate (issue 19) takes its delivery log with it.
// The company's managers read both; they write endpoints; nobody else sees either.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users" && @request.auth.verified = true';
const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;

const EVENTS = ["candidate.invited", "candidate.started", "candidate.completed", "answer.transcribed", "candidate.decided"];

migrate(
  (app) => {
    const companies = app.findCollectionByNameOrId("companies");
    const candidates = app.findCollectionByNameOrId("candidates");

    const endpoints = new Collection({
      type: "base",
      name: "webhook_endpoints",
      listRule: manages("company.managers"),
      viewRule: manages("company.managers"),
      createRule: manages("company.managers"),
      // the company stays the one it was (the rule reads the stored row's company, the body cannot move it)
      updateRule: `${manages("company.managers")} && (@request.body.company:isset = false || @request.body.company = company)`,
      deleteRule: manages("company.managers"),
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "url", type: "url", required: true },
        { name: "events", type: "select", required: true, values: EVENTS, maxSelect: EVENTS.length },
        { name: "enabled", type: "bool" },
        { name: "secret", type: "text", hidden: true, max: 200 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_webhook_endpoints_company ON webhook_endpoints (company, created)"],
    });
    app.save(endpoints);

    const deliveries = new Collection({
      type: "base",
      name: "webhook_deliveries",
      listRule: manages("endpoint.company.managers"),
      viewRule: manages("endpoint.company.managers"),
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "endpoint", type: "relation", required: true, collectionId: endpoints.id, maxSelect: 1, cascadeDelete: true },
        { name: "candidate", type: "relation", collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "event", type: "select", required: true, values: EVENTS, maxSelect: 1 },
        { name: "payload", type: "json", maxSize: 1000000 },
        { name: "status", type: "select", required: true, values: ["pending", "succeeded", "failed"], maxSelect: 1 },
        { name: "attempts", type: "number", min: 0, onlyInt: true },
        { name: "nextAttemptAt", type: "date" },
        // the last moment a retry may start: a day after the event (or after 'send again')
        { name: "giveUpAt", type: "date" },
        { name: "lastStatus", type: "number", min: 0, onlyInt: true },
        { name: "latencyMs", type: "number", min: 0, onlyInt: true },
        { name: "lastError", type: "text", max: 1000 },
        { name: "deliveredAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: [
        // the sender's query: the due pending rows, earliest first
        "CREATE INDEX idx_webhook_deliveries_due ON webhook_deliveries (status, nextAttemptAt)",
        "CREATE INDEX idx_webhook_deliveries_endpoint ON webhook_deliveries (endpoint, created)",
        "CREATE INDEX idx_webhook_deliveries_candidate ON webhook_deliveries (candidate)",
      ],
    });
    app.save(deliveries);
  },
  (app) => {
    for (const name of ["webhook_deliveries", "webhook_endpoints"]) app.delete(app.findCollectionByNameOrId(name));
  },
);
