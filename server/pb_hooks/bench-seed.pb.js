/// <reference path="../../.cache/pocketbase/types.d.ts" />
// POST /api/screenroom/bench-seed {records: [{collection, data}]}: the benchmark's seeder (scripts/bench-seed.mjs)
// writes its data set through this route, hundreds of records a request in one transaction, instead of the batch API's
// 24-50 records a multipart request. Only on a server started with SCREENROOM_BENCH_SEED set to the path of the video
// file its video answers carry (scripts/bench/stack.mjs), and only for superusers; everywhere else it answers 404.
//
// Each record is saved with `txApp.save()`: the records are validated and every model hook runs (e-mails lower-cased,
// an answer's kind checked against its question, a candidate's status, answeredCount, averageRating and ratingsCount
// kept by the server, the search index's triggers), as for the batch API; what this route skips is what the batch
// API does per request: rules (a superuser's batch skips them too), request hooks (for a superuser they only let the
// write through) and one multipart body with the same small file re-encoded per video answer. A video answer's
// `file: true` stores the file at SCREENROOM_BENCH_SEED (a fresh copy per record, as an upload would be).
routerAdd("POST", "/api/screenroom/bench-seed", (e) => {
  const videoPath = $os.getenv("SCREENROOM_BENCH_SEED");
  if (!videoPath || !e.hasSuperuserAuth()) throw new NotFoundError("The requested resource wasn't found.");
  const records = (e.requestInfo().body || {}).records;
  if (!Array.isArray(records) || records.length === 0 || records.length > 5000) {
    throw new BadRequestError("records must be a list of 1 to 5000 {collection, data}.");
  }
  let saved = 0;
  e.app.runInTransaction((txApp) => {
    const collections = {};
    for (const item of records) {
      const name = String(item.collection || "");
      const collection = collections[name] || (collections[name] = txApp.findCollectionByNameOrId(name));
      const data = item.data || {};
      const record = data.id ? (item.update ? txApp.findRecordById(collection, data.id) : new Record(collection)) : new Record(collection);
      for (const key of Object.keys(data)) {
        if (key === "file" && data[key] === true) record.set("file", $filesystem.fileFromPath(videoPath));
        else record.set(key, data[key]);
      }
      txApp.save(record);
      saved += 1;
    }
  });
  return e.json(200, { saved });
});

// POST /api/screenroom/bench-seed/clone {jobs: [ids], copy: n}: the data set at --scale=N is its first tenth, written
// record by record above, and N-1 copies of it made here in SQL, one copy a request in one transaction: the given jobs
// with their candidates, answers (text and video, the video files copied in storage), ratings, comments and question
// progress, each row as the hooks stored it (a candidate's status, answeredCount, averageRating and ratingsCount are
// those of the answers and ratings copied with it) under a new random id, the relations pointing at the copies. A
// copy's candidates get new keys (40 random letters and digits) and e-mails `copy{n}-{e-mail}`, its jobs the title
// `{title} · copy {n}`. The search index's triggers index the copied answers as they do any insert. Same gate as above.
routerAdd("POST", "/api/screenroom/bench-seed/clone", (e) => {
  const videoPath = $os.getenv("SCREENROOM_BENCH_SEED");
  if (!videoPath || !e.hasSuperuserAuth()) throw new NotFoundError("The requested resource wasn't found.");
  const body = e.requestInfo().body || {};
  const jobs = body.jobs;
  const copy = Number(body.copy);
  if (!Array.isArray(jobs) || jobs.length === 0 || !Number.isInteger(copy) || copy < 1) throw new BadRequestError("jobs and copy are required.");

  // the relation columns that point at copied rows, per table, in the order the copies are made
  const TABLES = [
    ["jobs", "id IN (SELECT old FROM bench_jobs)", []],
    ["candidates", "job IN (SELECT old FROM bench_jobs)", ["job"]],
    ["answers", "candidate IN (SELECT old FROM bench_candidates)", ["candidate"]],
    ["text_answers", "answer IN (SELECT old FROM bench_answers)", ["answer"]],
    ["video_answers", "answer IN (SELECT old FROM bench_answers)", ["answer"]],
    ["ratings", "candidate IN (SELECT old FROM bench_candidates)", ["answer", "candidate"]],
    ["comments", "candidate IN (SELECT old FROM bench_candidates)", ["candidate"]],
    ["question_progress", "candidate IN (SELECT old FROM bench_candidates)", ["candidate"]],
  ];
  const MAPS = { job: "bench_jobs", candidate: "bench_candidates", answer: "bench_answers" };
  const counts = {};
  e.app.runInTransaction((txApp) => {
    const run = (sql, params) => txApp.db().newQuery(sql).bind(params || {}).execute();
    for (const map of ["bench_jobs", "bench_candidates", "bench_answers", "bench_map"]) {
      run(`CREATE TEMP TABLE IF NOT EXISTS ${map} (old TEXT PRIMARY KEY, new TEXT NOT NULL)`);
      run(`DELETE FROM ${map}`);
    }
    for (let i = 0; i < jobs.length; i++) {
      run("INSERT INTO bench_jobs (old, new) SELECT id, lower(hex(randomblob(7))) || 'j' FROM jobs WHERE id = {:id}", { id: String(jobs[i]) });
    }
    run("INSERT INTO bench_candidates (old, new) SELECT id, lower(hex(randomblob(7))) || 'c' FROM candidates WHERE job IN (SELECT old FROM bench_jobs)");
    run("INSERT INTO bench_answers (old, new) SELECT id, lower(hex(randomblob(7))) || 'a' FROM answers WHERE candidate IN (SELECT old FROM bench_candidates)");

    const files = [];
    for (const [table, where, relations] of TABLES) {
      const columns = arrayOf(new DynamicModel({ name: "" }));
      txApp.db().newQuery(`SELECT name FROM pragma_table_info('${table}')`).all(columns);
      // this table's own ids: the maps above for jobs, candidates and answers, a fresh one for the others
      const own = table === "jobs" ? "bench_jobs" : table === "candidates" ? "bench_candidates" : table === "answers" ? "bench_answers" : "bench_map";
      if (own === "bench_map") {
        run("DELETE FROM bench_map");
        run(`INSERT INTO bench_map (old, new) SELECT id, lower(hex(randomblob(7))) || 'x' FROM ${table} WHERE ${where}`);
      }
      const values = columns.map(({ name }) => {
        if (name === "id") return "m.new";
        if (relations.indexOf(name) !== -1) return `(SELECT new FROM ${MAPS[name]} WHERE old = t.${name})`;
        if (table === "jobs" && name === "title") return `t.title || ' · copy ' || {:copy}`;
        if (table === "candidates" && name === "email") return `'copy' || {:copy} || '-' || t.email`;
        // 40 random letters and digits, as the migration's pattern wants
        if (table === "candidates" && name === "secret") return "lower(hex(randomblob(20)))";
        return `t.[${name}]`;
      });
      run(
        `INSERT INTO ${table} (${columns.map(({ name }) => `[${name}]`).join(", ")}) ` +
          `SELECT ${values.join(", ")} FROM ${table} t JOIN ${own} m ON m.old = t.id`,
        { copy },
      );
      const n = arrayOf(new DynamicModel({ n: 0 }));
      txApp.db().newQuery(`SELECT count(*) AS n FROM ${own}`).all(n);
      counts[table] = n[0].n;
      if (table === "video_answers") {
        const rows = arrayOf(new DynamicModel({ old: "", new: "", file: "" }));
        txApp.db().newQuery("SELECT m.old AS old, m.new AS new, t.file AS file FROM video_answers t JOIN bench_map m ON m.old = t.id").all(rows);
        for (const row of rows) files.push({ from: row.old, to: row.new, file: row.file });
      }
    }
    // the copied video answers' files, beside their records as an upload would put them
    const collection = txApp.findCollectionByNameOrId("video_answers");
    const storage = `${txApp.dataDir()}/storage/${collection.id}`;
    for (const f of files) {
      if (!f.file) continue;
      $os.mkdirAll(`${storage}/${f.to}`, 0o755);
      $os.writeFile(`${storage}/${f.to}/${f.file}`, $os.readFile(`${storage}/${f.from}/${f.file}`), 0o644);
    }
    for (const map of ["bench_jobs", "bench_candidates", "bench_answers", "bench_map"]) run(`DROP TABLE ${map}`);
  });
  return e.json(200, { copy, counts });
});
