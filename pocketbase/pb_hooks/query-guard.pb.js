/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Client filters and sorts stay inside the records a caller may list (lib/query-guard.js): checked before a list
// query runs, and on every realtime subscription's options.

routerUse((e) => {
  const match = /^\/api\/collections\/([^/]+)\/records\/?$/.exec(e.request.url.path);
  // GET and HEAD alike (Go's router answers HEAD on GET routes, with the length of what GET would send)
  if (match && e.request.method !== "POST" && !e.hasSuperuserAuth()) {
    const { forbiddenPath, refusal } = require(`${__hooks}/lib/query-guard.js`);
    const query = e.request.url.query();
    let collection = decodeURIComponent(match[1]);
    try {
      collection = e.app.findCollectionByNameOrId(collection).name;
    } catch (_) {
      // an unknown collection is PocketBase's 404 to give
    }
    for (const name of ["filter", "sort"]) {
      const path = forbiddenPath(collection, query.get(name));
      if (path) throw refusal(path);
    }
  }
  return e.next();
});

onRealtimeSubscribeRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    const { forbiddenPath, refusal, subscriptionQueries } = require(`${__hooks}/lib/query-guard.js`);
    for (const subscription of e.subscriptions) {
      let queries;
      try {
        queries = subscriptionQueries(subscription);
      } catch (_) {
        throw new BadRequestError("Invalid subscription options.");
      }
      for (const { collection, expression } of queries) {
        let name = collection;
        try {
          name = e.app.findCollectionByNameOrId(collection).name;
        } catch (_) {
          // an unknown collection subscribes to nothing
        }
        const path = forbiddenPath(name, expression);
        if (path) throw refusal(path);
      }
    }
  }
  e.next();
});
