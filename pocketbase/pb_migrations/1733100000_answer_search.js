/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 18 point 3: search across every transcript and text answer of a company.
// - answer_search: an SQLite FTS5 table (porter stemming over unicode61, diacritics folded) of each answer's words:
//   a text answer's content, a video answer's transcript once the worker wrote it. Its `company` column holds the
//   answer's company id, so a search matches inside one company in the index itself (`company : "…" AND (…)`),
//   never across companies and never by filtering a global result afterwards. The id is indexed with a '0' after it:
//   a token ending in a digit is left alone by the porter stemmer, which could otherwise stem two ids to one token
//   (the search route checks the company again on answer_search_docs all the same).
// - answer_search_docs: which record each FTS row stands for (the FTS rowid is its docid), with the answer, the
//   candidate and the company, so a changed or deleted record finds its row by its id.
// Triggers keep both in step with text_answers and video_answers, whoever writes them (the answers route, the media
// worker, a cascade delete of a candidate, job or company, a superuser), inside the same transaction as the write.
// Neither table is a collection: no records API, rule, filter, expand or realtime reaches them; only the search
// route (search.pb.js) reads them, for the managers of the company.

const TRIGGERS = ["text_answers_search_ai", "text_answers_search_au", "text_answers_search_ad", "video_answers_search_ai", "video_answers_search_au", "video_answers_search_ad"];

/** The SQL that indexes one kind record's words (`body`), `kind` being 'text' or 'video'; `rec` is NEW. */
function indexSql(kind, body) {
  return `
    INSERT INTO answer_search_docs (record, kind, answer, candidate, company)
      SELECT NEW.id, '${kind}', a.id, a.candidate, j.company
      FROM answers a JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
      WHERE a.id = NEW.answer AND trim(coalesce(${body}, '')) != '';
    INSERT INTO answer_search (rowid, body, company)
      SELECT d.docid, ${body}, d.company || '0' FROM answer_search_docs d WHERE d.record = NEW.id;`;
}

/** The SQL that drops one kind record's row (`id` is OLD.id). */
const UNINDEX_SQL = `
    DELETE FROM answer_search WHERE rowid = (SELECT docid FROM answer_search_docs WHERE record = OLD.id);
    DELETE FROM answer_search_docs WHERE record = OLD.id;`;

migrate(
  (app) => {
    const db = app.db();
    const run = (sql) => db.newQuery(sql).execute();
    run(`CREATE TABLE answer_search_docs (
      docid INTEGER PRIMARY KEY AUTOINCREMENT,
      record TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      answer TEXT NOT NULL,
      candidate TEXT NOT NULL,
      company TEXT NOT NULL
    )`);
    run("CREATE INDEX idx_answer_search_docs_candidate ON answer_search_docs (candidate)");
    run(`CREATE VIRTUAL TABLE answer_search USING fts5(body, company, tokenize = 'porter unicode61 remove_diacritics 2')`);

    run(`CREATE TRIGGER text_answers_search_ai AFTER INSERT ON text_answers BEGIN ${indexSql("text", "NEW.content")} END`);
    run(`CREATE TRIGGER text_answers_search_au AFTER UPDATE OF content ON text_answers BEGIN ${UNINDEX_SQL} ${indexSql("text", "NEW.content")} END`);
    run(`CREATE TRIGGER text_answers_search_ad AFTER DELETE ON text_answers BEGIN ${UNINDEX_SQL} END`);
    run(`CREATE TRIGGER video_answers_search_ai AFTER INSERT ON video_answers BEGIN ${indexSql("video", "NEW.transcript")} END`);
    run(`CREATE TRIGGER video_answers_search_au AFTER UPDATE OF transcript ON video_answers BEGIN ${UNINDEX_SQL} ${indexSql("video", "NEW.transcript")} END`);
    run(`CREATE TRIGGER video_answers_search_ad AFTER DELETE ON video_answers BEGIN ${UNINDEX_SQL} END`);

    // What is already there.
    for (const [table, kind, body] of [
      ["text_answers", "text", "content"],
      ["video_answers", "video", "transcript"],
    ]) {
      run(`INSERT INTO answer_search_docs (record, kind, answer, candidate, company)
           SELECT k.id, '${kind}', a.id, a.candidate, j.company
           FROM ${table} k JOIN answers a ON a.id = k.answer JOIN candidates c ON c.id = a.candidate JOIN jobs j ON j.id = c.job
           WHERE trim(coalesce(k.${body}, '')) != ''`);
      run(`INSERT INTO answer_search (rowid, body, company)
           SELECT d.docid, k.${body}, d.company || '0' FROM answer_search_docs d JOIN ${table} k ON k.id = d.record WHERE d.kind = '${kind}'`);
    }
  },
  (app) => {
    const db = app.db();
    for (const name of TRIGGERS) db.newQuery(`DROP TRIGGER IF EXISTS ${name}`).execute();
    db.newQuery("DROP TABLE IF EXISTS answer_search").execute();
    db.newQuery("DROP TABLE IF EXISTS answer_search_docs").execute();
  },
);
