/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Client filters and sorts stay inside the records a caller may list (lib/query-guard.js): checked before a list
// query runs, and on every realtime subscription's options.

routerUse((e) => {
  const match = /^\/api\/collections\/([^/]+)\/records\/?$/.exec(e.request.url.path);
  if (match && e.request.method === "GET" && !e.hasSuperuserAuth()) {
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
    const { forbiddenPath, refusal } = require(`${__hooks}/lib/query-guard.js`);
    for (const subscription of e.subscriptions) {
      // "{collection}/{topic}?options={json}", the options carrying query.filter (and maybe query.sort)
      const at = subscription.indexOf("?options=");
      if (at === -1) continue;
      let options = {};
      try {
        options = JSON.parse(decodeURIComponent(subscription.slice(at + "?options=".length)));
      } catch (_) {
        try {
          options = JSON.parse(subscription.slice(at + "?options=".length));
        } catch (_) {
          throw new BadRequestError("Invalid subscription options.");
        }
      }
      const collection = subscription.slice(0, subscription.indexOf("/") === -1 ? at : subscription.indexOf("/"));
      const query = (options && options.query) || {};
      for (const name of ["filter", "sort"]) {
        const path = forbiddenPath(collection, query[name]);
        if (path) throw refusal(path);
      }
    }
  }
  e.next();
});
