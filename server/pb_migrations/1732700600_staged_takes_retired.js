/// <reference path="../../.cache/pocketbase/types.d.ts" />
// staged_takes.replaced becomes `retired`: it was set when a newer take replaced the row's take, but also when the
// take was discarded (DELETE) or its question answered; "retired" says all three (issue 14). PocketBase renames the
// column by the field's id, so the values stay.

migrate(
  (app) => {
    const collection = app.findCollectionByNameOrId("staged_takes");
    collection.fields.getByName("replaced").name = "retired";
    app.save(collection);
  },
  (app) => {
    const collection = app.findCollectionByNameOrId("staged_takes");
    collection.fields.getByName("retired").name = "replaced";
    app.save(collection);
  },
);
