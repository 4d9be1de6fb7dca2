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

/**
 * The expression with its string literals emptied and its comments removed, scanned left to right as PocketBase's
 * filter lexer does: a quote inside a `//` comment starts no string, and `//` inside a string starts no comment.
 */
function codeOf(expression) {
  const text = String(expression || "");
  let code = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
      code += "''";
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      code += " ";
    } else {
      code += c;
    }
  }
  return code;
}

/** The first identifier path of a filter or sort expression a client may not use in `collection`, or "". */
function forbiddenPath(collection, expression) {
  const code = codeOf(expression);
  const allowed = ALLOWED_PATHS[collection] || [];
  // identifiers as PocketBase's lexer reads them: a letter, `@`, `_` or `#`, then letters, digits and those, joined
  // by `.` (a relation path) or `:` (a modifier)
  const paths = code.match(/[@#A-Za-z_][@#A-Za-z0-9_]*(?:[.:][@#A-Za-z0-9_]*)*/g) || [];
  for (const path of paths) {
    if (path.indexOf("@request.") === 0) {
      // the request's own values; from the signed-in record only its own fields, not relations onward
      const auth = /^@request\.auth\.(.*)$/.exec(path.replace(/(:[@#A-Za-z0-9_]*)+$/, ""));
      if (path.indexOf("_via_") !== -1 || (auth && auth[1].indexOf(".") !== -1)) return path;
      continue;
    }
    if (path.toLowerCase().indexOf("@collection") === 0) return path;
    if (path.indexOf("_via_") !== -1) return path;
    const bare = path.replace(/(:[@#A-Za-z0-9_]*)+$/, "");
    if (bare.indexOf(".") !== -1 && allowed.indexOf(bare) === -1) return path;
  }
  return "";
}

function refusal(path) {
  return new BadRequestError("This filter or sort is not allowed.", {
    filter: new ValidationError("validation_forbidden_path", `Filters and sorts may not follow relations (${path}).`),
  });
}

/**
 * The filters and sorts in a realtime subscription ("{collection}/{topic}?...&options={json}"), read as PocketBase
 * reads them: the first `options` query parameter of the topic's URL, its JSON keys matched case-insensitively (Go's
 * JSON decoding), every candidate key checked. Returns [{collection, expression}]; throws on options it cannot read.
 */
function subscriptionQueries(subscription) {
  const at = subscription.indexOf("?");
  const topic = at === -1 ? subscription : subscription.slice(0, at);
  const collection = topic.split("/")[0];
  if (at === -1) return [];
  let raw = null;
  for (const pair of subscription.slice(at + 1).split("&")) {
    const eq = pair.indexOf("=");
    const key = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, " "));
    if (key === "options") {
      raw = decodeURIComponent((eq === -1 ? "" : pair.slice(eq + 1)).replace(/\+/g, " "));
      break;
    }
  }
  if (raw === null || raw === "") return [];
  const options = JSON.parse(raw);
  const found = [];
  const each = (object, name, fn) => {
    if (object && typeof object === "object") {
      for (const key of Object.keys(object)) if (key.toLowerCase() === name) fn(object[key]);
    }
  };
  each(options, "query", (query) => {
    for (const name of ["filter", "sort"]) each(query, name, (value) => found.push({ collection: collection, expression: String(value) }));
  });
  return found;
}

module.exports = { forbiddenPath, refusal, subscriptionQueries };
