/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// The filter oracle (issue 13, finding 2): PocketBase checks the rules of related collections on a filter's main join
// but not inside the extra all-rows check it runs for `!=`, `>=`, `!~` and the like, so a relation path in a client's
// filter or sort could binary-search any related row's fields: from `users`, through
// `companies_via_managers.jobs_via_company.candidates_via_job`, the candidates, job titles and answers of a company
// the caller does not manage. Client filters and sorts (list requests and realtime subscriptions) may therefore name
// only the collection's own fields, `@request.*`, and the few relation paths the SPA uses, each of which stays
// inside records the caller may already list. Superusers are not limited.

/** The relation paths a client may use, per collection: ids only, never another record's data. */
const ALLOWED_PATHS = {
  companies: ["managers.id"],
  video_answers: ["answer.candidate"],
  text_answers: ["answer.candidate"],
};

/** The first identifier path of a filter or sort expression a client may not use in `collection`, or "". */
function forbiddenPath(collection, expression) {
  // string literals ('…' or "…", with \-escapes) hold values, not paths
  const code = String(expression || "").replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, "''");
  const allowed = ALLOWED_PATHS[collection] || [];
  const paths = code.match(/@?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*(?::[A-Za-z]+)?/g) || [];
  for (const path of paths) {
    if (path.indexOf("@request.") === 0) continue;
    if (path.indexOf("@collection") === 0) return path;
    if (path.indexOf("_via_") !== -1) return path;
    const bare = path.replace(/:[A-Za-z]+$/, "");
    if (bare.indexOf(".") !== -1 && allowed.indexOf(bare) === -1) return path;
  }
  return "";
}

function refusal(path) {
  return new BadRequestError("This filter or sort is not allowed.", {
    filter: new ValidationError("validation_forbidden_path", `Filters and sorts may not follow relations (${path}).`),
  });
}

module.exports = { forbiddenPath, refusal };
