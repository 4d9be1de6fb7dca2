/// <reference path="../../.cache/pocketbase/types.d.ts" />
// GET /api/screenroom/companies/{id}/search?q=…&offset=…: the managers' search across the transcripts and text
// answers of one company's candidates (issue 18 point 3; syntax and ranking in lib/search.js). For the company's
// managers only, as the review is (decisions.md "Access model"): anyone else, signed in or not, gets the same 404
// whether the company exists or not. 200 {items, more}; an empty or wordless q gives no items.
routerAdd("GET", "/api/screenroom/companies/{id}/search", (e) => {
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  const auth = info.auth;
  if (!auth || auth.collection().name !== "users") throw notFound();
  const companyId = e.request.pathValue("id");
  const row = new DynamicModel({ n: 0 });
  try {
    e.app
      .db()
      .newQuery("SELECT count(*) AS n FROM companies c WHERE c.id = {:company} AND EXISTS (SELECT 1 FROM json_each(c.managers) m WHERE m.value = {:user})")
      .bind({ company: companyId, user: auth.id })
      .one(row);
  } catch (_) {
    throw notFound();
  }
  if (!row.n) throw notFound();

  const search = require(`${__hooks}/lib/search.js`);
  const query = info.query || {};
  const offsetText = String(query.offset || "0");
  const offset = /^\d{1,6}$/.test(offsetText) ? Number(offsetText) : 0;
  const terms = search.parseQuery(query.q);
  return e.json(200, search.searchCompany(e.app, companyId, terms, offset));
});
