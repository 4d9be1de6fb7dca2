/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 3: search across every transcript and text answer of a company.
// - answer_search: an SQLite FTS5 table (porter stemming over unicode61, diacritics folded) of each answer's words:
//   a text answer's content, a video answer's transcript once the worker wrote it.
// - answer_search_docs: which record each FTS row stands for (the FTS rowid is its docid), with the answer, the
//   candidate and the company, so a changed or deleted record finds its row by its id.
// - answer_search_companies: a number per company. A company's rows take docids in a range of their own
//   (number × 2^32 + 1 …), so a search matches inside one company in the index itself (`rowid BETWEEN …`, which FTS5
//   seeks in its lists), never across companies and never by filtering a global result afterwards; the search route
//   checks the company again on answer_search_docs all the same. (A company column in the FTS table did the same at
//   twice the cost: every search then walked the company's whole list.)
// Triggers keep them in step with text_answers and video_answers, whoever writes them (the answers route, the media
// worker, a cascade delete of a candidate, job or company, a superuser), inside the same transaction as the write.
// None is a collection: no records API, rule, filter, expand or realtime reaches them; only the search route
// (search.pb.js) reads them, for the managers of the company.

const TRIGGERS = ["text_answers_search_ai", "text_answers_search_au", "text_answers_search_ad", "video_answers_search_ai", "video_answers_search_au", "video_answers_search_ad"];
const RANGE = 4294967296; // 2^32 docids per company

/** The answer's company, for the kind record NEW whose words are `body`, when it has words. */
const ANSWER_COMPANY = (body) => `
      FROM answers a JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
      WHERE a.id = NEW.answer AND trim(coalesce(${body}, '')) != ''`;

/** The SQL that indexes one kind record's words (`body`), `kind` being 'text' or 'video'. */
function indexSql(kind, body) {
  return `
    INSERT OR IGNORE INTO answer_search_companies (company, idx)
      SELECT j.company, (SELECT coalesce(max(idx), 0) + 1 FROM answer_search_companies) ${ANSWER_COMPANY(body)};
    INSERT INTO answer_search_docs (docid, record, kind, answer, candidate, company)
      SELECT (SELECT coalesce(max(d.docid), n.idx * ${RANGE}) + 1 FROM answer_search_docs d
              WHERE d.docid BETWEEN n.idx * ${RANGE} AND n.idx * ${RANGE} + ${RANGE - 1}),
             NEW.id, '${kind}', a.id, a.candidate, j.company
      FROM answers a JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
      JOIN answer_search_companies n ON n.company = j.company
      WHERE a.id = NEW.answer AND trim(coalesce(${body}, '')) != '';
    INSERT INTO answer_search (rowid, body) SELECT d.docid, ${body} FROM answer_search_docs d WHERE d.record = NEW.id;`;
}

/** The SQL that drops one kind record's row (OLD). */
const UNINDEX_SQL = `
    DELETE FROM answer_search WHERE rowid = (SELECT docid FROM answer_search_docs WHERE record = OLD.id);
    DELETE FROM answer_search_docs WHERE record = OLD.id;`;

migrate(
  (app) => {
    const db = app.db();
    const run = (sql) => db.newQuery(sql).execute();
    run("CREATE TABLE answer_search_companies (company TEXT PRIMARY KEY NOT NULL, idx INTEGER NOT NULL UNIQUE)");
    run(`CREATE TABLE answer_search_docs (
      docid INTEGER PRIMARY KEY,
      record TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      answer TEXT NOT NULL,
      candidate TEXT NOT NULL,
      company TEXT NOT NULL
    )`);
    run(`CREATE VIRTUAL TABLE answer_search USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2')`);

    run(`CREATE TRIGGER text_answers_search_ai AFTER INSERT ON text_answers BEGIN ${indexSql("text", "NEW.content")} END`);
    run(`CREATE TRIGGER text_answers_search_au AFTER UPDATE OF content ON text_answers BEGIN ${UNINDEX_SQL} ${indexSql("text", "NEW.content")} END`);
    run(`CREATE TRIGGER text_answers_search_ad AFTER DELETE ON text_answers BEGIN ${UNINDEX_SQL} END`);
    run(`CREATE TRIGGER video_answers_search_ai AFTER INSERT ON video_answers BEGIN ${indexSql("video", "NEW.transcript")} END`);
    run(`CREATE TRIGGER video_answers_search_au AFTER UPDATE OF transcript ON video_answers BEGIN ${UNINDEX_SQL} ${indexSql("video", "NEW.transcript")} END`);
    run(`CREATE TRIGGER video_answers_search_ad AFTER DELETE ON video_answers BEGIN ${UNINDEX_SQL} END`);

    // What is already there: the companies numbered, then each company's rows numbered in its range.
    const existing = `
      SELECT k.id AS record, 'text' AS kind, k.content AS body, a.id AS answer, a.candidate AS candidate, j.company AS company
        FROM text_answers k JOIN answers a ON a.id = k.answer JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
        WHERE trim(coalesce(k.content, '')) != ''
      UNION ALL
      SELECT k.id, 'video', k.transcript, a.id, a.candidate, j.company
        FROM video_answers k JOIN answers a ON a.id = k.answer JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
        WHERE trim(coalesce(k.transcript, '')) != ''`;
    run(`INSERT INTO answer_search_companies (company, idx)
         SELECT company, row_number() OVER (ORDER BY company) FROM (SELECT DISTINCT company FROM (${existing}))`);
    run(`INSERT INTO answer_search_docs (docid, record, kind, answer, candidate, company)
         SELECT n.idx * ${RANGE} + row_number() OVER (PARTITION BY e.company ORDER BY e.record), e.record, e.kind, e.answer, e.candidate, e.company
         FROM (${existing}) e JOIN answer_search_companies n ON n.company = e.company`);
    run(`INSERT INTO answer_search (rowid, body)
         SELECT d.docid, coalesce(t.content, v.transcript) FROM answer_search_docs d
         LEFT JOIN text_answers t ON d.kind = 'text' AND t.id = d.record
         LEFT JOIN video_answers v ON d.kind = 'video' AND v.id = d.record`);
  },
  (app) => {
    const db = app.db();
    for (const name of TRIGGERS) db.newQuery(`DROP TRIGGER IF EXISTS ${name}`).execute();
    db.newQuery("DROP TABLE IF EXISTS answer_search").execute();
    db.newQuery("DROP TABLE IF EXISTS answer_search_docs").execute();
    db.newQuery("DROP TABLE IF EXISTS answer_search_companies").execute();
  },
);
