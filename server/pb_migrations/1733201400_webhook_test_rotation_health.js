/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Webhooks a manager can trust without guessing (server/internal/webhooks):
// - webhook_deliveries.event "webhook.test": the signed test event a manager sends to one endpoint from its settings.
// - a secret rotated in place: secretRotatedAt, and the replaced secret (previousSecret, hidden like the secret: no
//   response, filter or sort reaches it) that also signs each delivery until previousSecretUntil, so a receiver
//   keeps verifying while it switches (Standard Webhooks lists several signatures in one header).
// - an endpoint's health: failingSince (the first failed attempt of the current run of failures, empty once one
//   succeeds); disabledAt and disabledReason when the server disabled it for failing too long.
// Only the server writes these fields: the endpoint's update hook keeps their stored values whatever a request sends.
// The event values are extended as they stand, so another migration adding an event keeps it.

const NEW_EVENT = "webhook.test";
const FIELDS = [
  new DateField({ name: "secretRotatedAt" }),
  new TextField({ name: "previousSecret", hidden: true, max: 200 }),
  new DateField({ name: "previousSecretUntil" }),
  new DateField({ name: "failingSince" }),
  new DateField({ name: "disabledAt" }),
  new TextField({ name: "disabledReason", max: 1000 }),
];

migrate(
  (app) => {
    const deliveries = app.findCollectionByNameOrId("webhook_deliveries");
    const event = deliveries.fields.getByName("event");
    if (!event.values.includes(NEW_EVENT)) event.values = [...event.values, NEW_EVENT];
    app.save(deliveries);

    const endpoints = app.findCollectionByNameOrId("webhook_endpoints");
    for (const field of FIELDS) endpoints.fields.add(field);
    app.save(endpoints);
  },
  (app) => {
    app.db().newQuery("DELETE FROM webhook_deliveries WHERE event = {:event}").bind({ event: NEW_EVENT }).execute();
    const deliveries = app.findCollectionByNameOrId("webhook_deliveries");
    const event = deliveries.fields.getByName("event");
    event.values = event.values.filter((value) => value !== NEW_EVENT);
    app.save(deliveries);

    const endpoints = app.findCollectionByNameOrId("webhook_endpoints");
    for (const field of FIELDS) endpoints.fields.removeByName(field.name);
    app.save(endpoints);
  },
);
