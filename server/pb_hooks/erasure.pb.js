/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 19 point 6: POST /api/screenroom/candidates/{id}/erase, 'Erase candidate' on the review. For the managers of
// the candidate's company only (the candidates collection's list rule, as the review route decides); anyone else, an
// unknown candidate and an unverified account get the same 404. Erases everything of the candidate's
// (lib/erasure.js eraseCandidate) and writes the audit entry in the same transaction. 200 { answers, videos }.

routerAdd("POST", "/api/screenroom/candidates/{id}/erase", (e) => {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  if (!info.auth || info.auth.collection().name !== "users" || !info.auth.verified()) throw notFound();
  const candidate = findByIdOrNull(e.app, "candidates", e.request.pathValue("id"));
  if (!candidate || !e.app.canAccessRecord(candidate, info, candidate.collection().listRule)) throw notFound();

  const erased = require(`${__hooks}/lib/erasure.js`).eraseCandidate(e.app, candidate.id, { action: "erase", actor: info.auth.id });
  if (!erased) throw notFound();
  e.response.header().set("Cache-Control", "no-store");
  return e.json(200, { answers: erased.answers, videos: erased.videos });
});
