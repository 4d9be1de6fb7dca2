/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 15: from watching to deciding. The schema and rules of the review workflow (its hooks and routes are in
// pb_hooks/review-workflow.pb.js and pb_hooks/share-links.pb.js):
// - candidates gain what the pipeline shows and sorts by, kept by the server only (hooks; the records API refuses
//   them): `status` (invited, started, completed) with `answeredCount`, `startedAt`, `completedAt` (from the
//   answers); `averageRating` and `ratingsCount` (the average over the candidate's answers of each answer's average
//   rating, and how many ratings there are); `decision` (advance, hold, reject, or none) with `decisionBy` and
//   `decisionAt`, set through POST /api/screenroom/candidates/{id}/decision.
// - ratings: a manager's 1-5 stars for one answer, one per manager and answer; a manager writes only their own, and
//   only the job's company's managers read them.
// - comments: a thread per candidate, 1 to 2,000 characters; the author edits or deletes their own.
// - share_links: a read-only link to one candidate's review; only the SHA-256 of its token is stored (hidden, so no
//   filter reaches it); made and revoked through routes; managers of the company list them.
// - video_answers gain `transcriptSegments`: [{start, end, text}] in seconds, from the media worker.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users"';
const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;
const unchanged = (...fields) => fields.map((f) => `(@request.body.${f}:isset = false || @request.body.${f} = ${f})`).join(" && ");

const CANDIDATE_FIELDS = ["status", "answeredCount", "startedAt", "completedAt", "averageRating", "ratingsCount", "decision", "decisionBy", "decisionAt"];
const CANDIDATE_INDEXES = [
  "CREATE INDEX idx_candidates_job_status ON candidates (job, status)",
  "CREATE INDEX idx_candidates_job_decision ON candidates (job, decision)",
  "CREATE INDEX idx_candidates_job_created ON candidates (job, created)",
  "CREATE INDEX idx_candidates_job_rating ON candidates (job, averageRating)",
];

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");
    const candidates = app.findCollectionByNameOrId("candidates");
    const answers = app.findCollectionByNameOrId("answers");

    candidates.fields.add(new SelectField({ name: "status", values: ["invited", "started", "completed"], maxSelect: 1 }));
    candidates.fields.add(new NumberField({ name: "answeredCount", min: 0, onlyInt: true }));
    candidates.fields.add(new DateField({ name: "startedAt" }));
    candidates.fields.add(new DateField({ name: "completedAt" }));
    candidates.fields.add(new NumberField({ name: "averageRating", min: 0, max: 5 }));
    candidates.fields.add(new NumberField({ name: "ratingsCount", min: 0, onlyInt: true }));
    candidates.fields.add(new SelectField({ name: "decision", values: ["advance", "hold", "reject"], maxSelect: 1 }));
    candidates.fields.add(new RelationField({ name: "decisionBy", collectionId: users.id, maxSelect: 1, cascadeDelete: false }));
    candidates.fields.add(new DateField({ name: "decisionAt" }));
    candidates.indexes = [...candidates.indexes, ...CANDIDATE_INDEXES];
    app.save(candidates);

    // the candidates of before: their status from their answers
    app
      .db()
      .newQuery(
        `UPDATE candidates SET
           answeredCount = (SELECT count(*) FROM answers WHERE answers.candidate = candidates.id),
           startedAt = COALESCE((SELECT min(created) FROM answers WHERE answers.candidate = candidates.id), ''),
           averageRating = 0,
           ratingsCount = 0`,
      )
      .execute();
    app
      .db()
      .newQuery(
        `UPDATE candidates SET
           status = CASE
             WHEN answeredCount = 0 THEN 'invited'
             WHEN answeredCount >= (SELECT json_array_length(jobs.questions) FROM jobs WHERE jobs.id = candidates.job) THEN 'completed'
             ELSE 'started' END,
           completedAt = CASE
             WHEN answeredCount > 0 AND answeredCount >= (SELECT json_array_length(jobs.questions) FROM jobs WHERE jobs.id = candidates.job)
             THEN (SELECT max(created) FROM answers WHERE answers.candidate = candidates.id) ELSE '' END`,
      )
      .execute();

    const ratings = new Collection({
      type: "base",
      name: "ratings",
      listRule: manages("candidate.job.company.managers"),
      viewRule: manages("candidate.job.company.managers"),
      createRule: `${manages("candidate.job.company.managers")} && manager = @request.auth.id && answer.candidate = candidate`,
      updateRule: `${manages("candidate.job.company.managers")} && manager = @request.auth.id && ${unchanged("answer", "candidate", "manager")}`,
      deleteRule: `${manages("candidate.job.company.managers")} && manager = @request.auth.id`,
      fields: [
        { name: "answer", type: "relation", required: true, collectionId: answers.id, maxSelect: 1, cascadeDelete: true },
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "manager", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
        { name: "stars", type: "number", required: true, min: 1, max: 5, onlyInt: true },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_ratings_answer_manager ON ratings (answer, manager)", "CREATE INDEX idx_ratings_candidate ON ratings (candidate)"],
    });
    app.save(ratings);

    const comments = new Collection({
      type: "base",
      name: "comments",
      listRule: manages("candidate.job.company.managers"),
      viewRule: manages("candidate.job.company.managers"),
      createRule: `${manages("candidate.job.company.managers")} && author = @request.auth.id`,
      updateRule: `${manages("candidate.job.company.managers")} && author = @request.auth.id && ${unchanged("candidate", "author")}`,
      deleteRule: `${manages("candidate.job.company.managers")} && author = @request.auth.id`,
      fields: [
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "author", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
        { name: "text", type: "text", required: true, min: 1, max: 2000 },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE INDEX idx_comments_candidate ON comments (candidate, created)"],
    });
    app.save(comments);

    const shareLinks = new Collection({
      type: "base",
      name: "share_links",
      listRule: manages("candidate.job.company.managers"),
      viewRule: manages("candidate.job.company.managers"),
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "createdBy", type: "relation", required: true, collectionId: users.id, maxSelect: 1, cascadeDelete: true },
        { name: "tokenHash", type: "text", required: true, hidden: true, min: 64, max: 64, pattern: "^[0-9a-f]{64}$" },
        { name: "expiresAt", type: "date", required: true },
        { name: "revokedAt", type: "date" },
        { name: "revokedBy", type: "relation", collectionId: users.id, maxSelect: 1, cascadeDelete: false },
        { name: "includeFeedback", type: "bool" },
        { name: "lastOpenedAt", type: "date" },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_share_links_token ON share_links (tokenHash)", "CREATE INDEX idx_share_links_candidate ON share_links (candidate)"],
    });
    app.save(shareLinks);

    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.add(new JSONField({ name: "transcriptSegments", maxSize: 2000000 }));
    app.save(videoAnswers);
  },
  (app) => {
    for (const name of ["share_links", "comments", "ratings"]) app.delete(app.findCollectionByNameOrId(name));
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.removeByName("transcriptSegments");
    app.save(videoAnswers);
    const candidates = app.findCollectionByNameOrId("candidates");
    for (const name of CANDIDATE_FIELDS) candidates.fields.removeByName(name);
    candidates.indexes = candidates.indexes.filter((index) => !CANDIDATE_INDEXES.includes(index));
    app.save(candidates);
  },
);
