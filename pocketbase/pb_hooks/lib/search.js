/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Transcript search (issue 18 point 3): what a manager types, made into an FTS5 query over answer_search
// (migration 1733100000_answer_search.js), and the hits read back for one company.
//
// Syntax (README "Search"): words, all of which must appear (any form of a word: "hiring" finds "hired"), and
// "quoted phrases", whose words must appear in that order. Nothing else is syntax: FTS5's operators (OR, NOT, NEAR,
// *, ^, column filters) typed by a manager are plain words here, so no input can widen a search beyond its company
// or make the query fail.

const MAX_QUERY_CHARS = 200;
const MAX_TERMS = 12;
// 20 a page: each hit's snippet is FTS5 tokenizing the answer again (README "Search across answers")
const PAGE_SIZE = 20;
/** Start and end of a highlighted match in a snippet (control characters no answer text keeps, see below). */
const MARK_START = "\u0002";
const MARK_END = "\u0003";

/**
 * The words of a piece of text, lower-cased: what lies between spaces, ASCII punctuation and the common Unicode
 * punctuation and symbols (the JS engine of the hooks has no Unicode property classes; FTS5's unicode61 tokenizer
 * splits each quoted word again by its own tables).
 */
function wordsOf(text) {
  return String(text || "")
    .toLowerCase()
    .split(/[\s\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u00bf\u00d7\u00f7\u2000-\u206f\u20a0-\u2bff\u3000-\u303f\ufe30-\ufe4f\uff00-\uff0f]+/)
    .filter((word) => word.length > 0);
}

/**
 * The search's terms: each a list of words (one word, or a phrase's words in order). Empty when nothing searchable
 * was typed.
 */
function parseQuery(raw) {
  const text = String(raw || "").slice(0, MAX_QUERY_CHARS);
  const terms = [];
  const seen = {};
  const add = (words) => {
    if (!words.length) return;
    const key = words.join(" ");
    if (seen[key]) return;
    seen[key] = true;
    terms.push(words);
  };
  // phrases first, then what is left outside the quotes, word by word
  const rest = text.replace(/"([^"]*)"?/g, (_, phrase) => {
    add(wordsOf(phrase));
    return " ";
  });
  for (const word of wordsOf(rest)) add([word]);
  return terms.slice(0, MAX_TERMS);
}

/** The FTS5 MATCH expression of the terms: only quoted tokens, so nothing in them is syntax. */
function matchExpression(terms) {
  return terms.map((words) => `"${words.join(" ")}"`).join(" AND ");
}

/** 2^32 docids per company (migration 1733100000_answer_search.js). */
const RANGE = 4294967296;

/** The company's range of docids, or null when it has nothing indexed. */
function companyRange(app, companyId) {
  const row = new DynamicModel({ idx: 0 });
  try {
    app.db().newQuery("SELECT idx FROM answer_search_companies WHERE company = {:company}").bind({ company: companyId }).one(row);
  } catch (_) {
    return null;
  }
  const idx = Math.trunc(row.idx);
  // whole numbers below 2^53: exact as JS numbers, written into the SQL as integer literals
  return idx > 0 ? { lo: idx * RANGE, hi: idx * RANGE + (RANGE - 1) } : null;
}

/**
 * How many answers the company has had indexed: docids are given in order within its range, so its newest docid
 * less the range's start (at least 1).
 */
function answersIndexed(app, range) {
  const row = new DynamicModel({ top: 0 });
  app
    .db()
    .newQuery(`SELECT coalesce(max(docid), 0) AS top FROM answer_search_docs WHERE docid BETWEEN ${range.lo} AND ${range.hi}`)
    .one(row);
  return Math.max(1, Math.trunc(row.top) - range.lo);
}

/** How many of a term's newest matches in the company its weight is estimated from (phraseWeights). */
const WEIGHT_SAMPLE = 200;

/**
 * Each term's weight in the ranking (`screenroom_rank`, pocketbase/fts5_rank.go): its IDF,
 * ln(1 + (N − n + 0.5) / (n + 0.5)), with N the company's answers and n those holding the term, n estimated from
 * the term's newest WEIGHT_SAMPLE matches in the company: exact when it has fewer, else WEIGHT_SAMPLE over the share
 * of the company's answers they span. bm25's own IDF counts every match in the whole index (all companies) on
 * every search, the largest part of a common word's search time; this costs a walk of at most WEIGHT_SAMPLE
 * matches, and weighs words by how common they are in the company's recent answers. One term needs no weight (a
 * weight common to every row changes no order): an empty list.
 */
function phraseWeights(app, terms, range) {
  if (terms.length < 2) return [];
  const answers = answersIndexed(app, range);
  return terms.map((words) => {
    const row = new DynamicModel({ n: 0, oldest: 0 });
    app
      .db()
      .newQuery(
        `SELECT count(*) AS n, coalesce(min(docid), 0) AS oldest
         FROM (SELECT rowid AS docid FROM answer_search
               WHERE answer_search MATCH {:match} AND rowid BETWEEN ${range.lo} AND ${range.hi}
               ORDER BY rowid DESC LIMIT ${WEIGHT_SAMPLE})`,
      )
      .bind({ match: matchExpression([words]) })
      .one(row);
    const found = Math.trunc(row.n);
    // the newest answer is number `answers` of the range: the sample spans from its oldest match to it
    const spanned = range.lo + answers - Math.trunc(row.oldest) + 1;
    const share = found < WEIGHT_SAMPLE ? found / answers : WEIGHT_SAMPLE / Math.max(WEIGHT_SAMPLE, spanned);
    const holding = share * answers;
    return Math.log(1 + (answers - holding + 0.5) / (holding + 0.5));
  });
}

/**
 * The first transcript segment that holds one of the terms' first words, as the time to start the video at; null
 * without segments or when none holds it (the stemmed match may be in another form of the word).
 */
function segmentStart(segments, terms) {
  if (!Array.isArray(segments) || !segments.length) return null;
  const wanted = terms.map((words) => words[0]);
  // a word matches a form of itself: compare on the first letters the stemmer keeps (at least four)
  const stems = wanted.map((word) => word.slice(0, Math.max(4, word.length - 3)));
  for (const segment of segments) {
    if (!segment || typeof segment.start !== "number") continue;
    const words = wordsOf(segment.text);
    for (let i = 0; i < wanted.length; i++) {
      for (const word of words) {
        if (word === wanted[i] || (word.length >= 4 && word.indexOf(stems[i]) === 0)) return segment.start;
      }
    }
  }
  return null;
}

/**
 * How many matches are ranked together (README "Search"): the newest RANK_WINDOW matches of the company, best first,
 * then the next RANK_WINDOW, and so on. bm25 over every match costs time in proportion to the matches (a common word
 * in a large company: tens of thousands, ~25 ms at 14,000 answers in PocketBase's SQLite, single-threaded); over a
 * window it costs the same at any size of company. `SEARCH_RANK_WINDOW` (default 200) changes it.
 */
function rankWindow() {
  const value = Number($os.getenv("SEARCH_RANK_WINDOW") || 200);
  return Number.isInteger(value) && value >= 1 && value <= 100000 ? value : 200;
}

/**
 * The docid of the company's n-th newest match (0 = the newest), or null when there are n or fewer: FTS5 walks its
 * lists in rowid order from the top of the range without ranking anything.
 */
function nthNewest(app, match, range, n) {
  const row = new DynamicModel({ docid: 0 });
  try {
    app
      .db()
      .newQuery(
        `SELECT rowid AS docid FROM answer_search
         WHERE answer_search MATCH {:match} AND rowid BETWEEN ${range.lo} AND ${range.hi}
         ORDER BY rowid DESC LIMIT 1 OFFSET {:n}`,
      )
      .bind({ match: match, n: n })
      .one(row);
  } catch (_) {
    return null;
  }
  return Math.trunc(row.docid);
}

/**
 * The snippet of each of the docids (a page's: whole numbers from answer_search_docs), by docid: up to 24 words
 * around the matches, MARK_START / MARK_END around each. The rowid range bounds FTS5's walk to the page's span of
 * matches; the list itself is a filter (`+rowid`), since a rowid IN constraint makes FTS5 walk every match.
 */
function snippetsOf(app, match, docids) {
  const ids = docids.filter((id) => Number.isSafeInteger(id));
  if (!ids.length) return {};
  const lo = Math.min(...ids);
  const hi = Math.max(...ids);
  const found = arrayOf(new DynamicModel({ docid: 0, snippet: "" }));
  app
    .db()
    .newQuery(
      `SELECT rowid AS docid, snippet(answer_search, 0, char(2), char(3), '…', 24) AS snippet
       FROM answer_search
       WHERE answer_search MATCH {:match} AND rowid BETWEEN ${lo} AND ${hi} AND +rowid IN (${ids.join(",")})`,
    )
    .bind({ match: match })
    .all(found);
  const byDocid = {};
  for (const row of found) byDocid[Math.trunc(row.docid)] = row.snippet;
  return byDocid;
}

/**
 * The window's hits (docids `lower`..`upper`), best first (bm25 with the terms' `weights`: screenroom_rank; then
 * newest), `limit` from `offset`, each with what it names (searchCompany): every ranked row, in the ranking's own
 * order (`n`); a row whose answer, question, candidate or job is gone (mid-delete) has no `answer` and is counted
 * but not shown.
 */
function rankedHits(app, match, weights, companyId, lower, upper, limit, offset) {
  const row = new DynamicModel({ hits: "" });
  const params = { match: match, company: companyId, limit: limit, offset: offset };
  // the weights as bound parameters, in the terms' order (the MATCH expression's phrases)
  const weightArgs = weights.map((weight, i) => {
    params[`w${i}`] = weight;
    return `, {:w${i}}`;
  });
  app
    .db()
    .newQuery(
      `SELECT coalesce(json_group_array(json_object(
           'n', s.n, 'docid', s.docid, 'kind', d.kind, 'answer', a.id,
           'question', q.id, 'questionTitle', coalesce(nullif(a.questionTitle, ''), q.title),
           'candidate', c.id, 'email', c.email, 'job', j.id, 'jobTitle', j.title,
           'segments', CASE WHEN d.kind = 'video' THEN (SELECT v.transcriptSegments FROM video_answers v WHERE v.id = d.record) END
         )), '[]') AS hits
       FROM (SELECT docid, row_number() OVER (ORDER BY score, docid DESC) AS n
             FROM (SELECT rowid AS docid, screenroom_rank(answer_search${weightArgs.join("")}) AS score
                   FROM answer_search
                   WHERE answer_search MATCH {:match} AND rowid BETWEEN ${lower} AND ${upper}
                   ORDER BY score, rowid DESC LIMIT {:limit} OFFSET {:offset})) s
       JOIN answer_search_docs d ON d.docid = s.docid AND d.company = {:company}
       LEFT JOIN answers a ON a.id = d.answer
       LEFT JOIN questions q ON q.id = a.question
       LEFT JOIN candidates c ON c.id = a.candidate
       LEFT JOIN jobs j ON j.id = c.job`,
    )
    .bind(params)
    .one(row);
  const hits = JSON.parse(row.hits || "[]");
  // the aggregate's order is not the ranking's: put back by the ranking's row number (exact, unlike the scores)
  hits.sort((x, y) => x.n - y.n);
  return hits;
}

/** A video answer's transcript segments from their JSON text, or null. */
function parseSegments(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (_) {
    return null;
  }
}

/**
 * The company's hits for the terms, best first within each window of the newest matches (rankWindow above), at most
 * PAGE_SIZE from `offset`; `more` when there are others after them. Each hit: the answer, its kind, candidate (id,
 * e-mail), job (id, title), question (id, title), a snippet with MARK_START / MARK_END around each match, and for a
 * video answer the second its match starts at.
 */
function searchCompany(app, companyId, terms, offset) {
  if (!terms.length) return { items: [], more: false };
  const range = companyRange(app, companyId);
  if (!range) return { items: [], more: false };
  const match = matchExpression(terms);
  const weights = phraseWeights(app, terms, range);
  const windowSize = rankWindow();
  const rows = [];
  let more = false;
  let position = offset;
  for (;;) {
    const index = Math.floor(position / windowSize);
    // the window: from its newest match (the range's top for the first) down to its oldest (the range's bottom
    // for the last)
    const upper = index === 0 ? range.hi : nthNewest(app, match, range, index * windowSize);
    if (upper === null) break;
    const oldest = nthNewest(app, match, range, (index + 1) * windowSize - 1);
    const lower = oldest === null ? range.lo : oldest;
    const need = PAGE_SIZE - rows.length;
    // ranked without snippets (snippet() here would run for every match of the window before the sort), with what
    // each hit names: the answer with its question (as the candidate was asked it: the answer's snapshot, issue 16),
    // candidate, job, and a video answer's segments as text; one row of JSON, since each value a row hands to the
    // hooks' JS engine costs more than the row itself
    const found = rankedHits(app, match, weights, companyId, lower, upper, need + 1, position - index * windowSize);
    if (found.length > need) {
      for (const row of found.slice(0, need)) rows.push(row);
      more = true;
      break;
    }
    for (const row of found) rows.push(row);
    if (oldest === null) break;
    if (rows.length === PAGE_SIZE) {
      more = nthNewest(app, match, range, (index + 1) * windowSize) !== null;
      break;
    }
    position = (index + 1) * windowSize;
  }
  const page = rows;
  if (!page.length) return { items: [], more: false };
  const snippets = snippetsOf(app, match, page.map((row) => row.docid));

  const items = [];
  for (const row of page) {
    if (!row.answer || !row.question || !row.candidate || !row.job) continue;
    items.push({
      answer: row.answer,
      kind: row.kind,
      candidate: { id: row.candidate, email: row.email },
      job: { id: row.job, title: row.jobTitle },
      question: { id: row.question, title: row.questionTitle },
      snippet: snippets[row.docid] || "",
      startSeconds: row.kind === "video" ? segmentStart(parseSegments(row.segments), terms) : null,
    });
  }
  return { items: items, more: more };
}

module.exports = { MAX_QUERY_CHARS, PAGE_SIZE, WEIGHT_SAMPLE, rankWindow, nthNewest, phraseWeights, MARK_START, MARK_END, wordsOf, parseQuery, matchExpression, companyRange, segmentStart, searchCompany };
