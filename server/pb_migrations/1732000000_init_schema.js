/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The whole Screenroom schema (spec §3 with decisions.md's changes) and its access rules
// (decisions.md "Access model"). Business rules that rules cannot express live in pb_hooks.

const AUTH = '@request.auth.id != "" && @request.auth.collectionName = "users"';
const CAND = "@request.headers.x_candidate_id";
const IS_CAND = `${CAND} != ""`;

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const IMAGE_MAX = 5 * 1024 * 1024;
const VIDEO_MAX = 150 * 1024 * 1024;

function timestamps() {
  return [
    { name: "created", type: "autodate", onCreate: true, onUpdate: false },
    { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
  ];
}

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("users");

    const companies = new Collection({
      type: "base",
      name: "companies",
      fields: [
        { name: "name", type: "text", required: true, max: 100 },
        { name: "website", type: "url", required: true },
        { name: "logo", type: "file", required: true, maxSelect: 1, maxSize: IMAGE_MAX, mimeTypes: IMAGE_TYPES, thumbs: ["100x100"] },
        { name: "managers", type: "relation", required: true, collectionId: users.id, maxSelect: 999, cascadeDelete: false },
        ...timestamps(),
      ],
    });
    app.save(companies);

    const invites = new Collection({
      type: "base",
      name: "manager_invites",
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "email", type: "email", required: true },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_manager_invites_company_email ON manager_invites (company, email)"],
    });
    app.save(invites);

    // users: names, avatar and the primary company (spec §3)
    users.fields.add(new TextField({ name: "firstName", required: true, min: 3, max: 100 }));
    users.fields.add(new TextField({ name: "lastName", required: true, min: 3, max: 100 }));
    // the default users collection already has an avatar file field: tighten it
    const avatar = users.fields.getByName("avatar");
    avatar.maxSelect = 1;
    avatar.maxSize = IMAGE_MAX;
    avatar.mimeTypes = IMAGE_TYPES;
    avatar.thumbs = ["100x100"];
    users.fields.add(new RelationField({ name: "primaryCompany", collectionId: companies.id, maxSelect: 1, cascadeDelete: false }));
    users.fields.removeByName("name");
    // e-mails are matched case-insensitively everywhere PocketBase looks a user up by e-mail
    users.indexes = users.indexes.map((sql) =>
      /\(\s*`?email`?\s*\)/.test(sql) ? sql.replace(/\(\s*`?email`?\s*\)/, "(`email` COLLATE NOCASE)") : sql,
    );
    const sharedCompany = `${AUTH} && companies_via_managers.managers.id ?= @request.auth.id`;
    users.listRule = `id = @request.auth.id || (${sharedCompany})`;
    users.viewRule = users.listRule;
    users.createRule = "";
    users.updateRule = "id = @request.auth.id";
    users.deleteRule = "id = @request.auth.id";
    app.save(users);

    // companies (rules set after jobs/candidates exist, as they join through them)
    const questions = new Collection({
      type: "base",
      name: "questions",
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "title", type: "text", required: true, min: 3, max: 100 },
        { name: "description", type: "text", required: true, min: 3, max: 1000 },
        { name: "timeout", type: "number", required: true, min: 5, max: 600, onlyInt: true },
        { name: "canPreview", type: "bool" },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_questions_company ON questions (company)"],
    });
    app.save(questions);

    const videoQuestions = new Collection({
      type: "base",
      name: "video_questions",
      fields: [
        { name: "question", type: "relation", required: true, collectionId: questions.id, maxSelect: 1, cascadeDelete: true },
        { name: "takes", type: "number", required: true, min: 1, max: 5, onlyInt: true },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_video_questions_question ON video_questions (question)"],
    });
    app.save(videoQuestions);

    const textQuestions = new Collection({
      type: "base",
      name: "text_questions",
      fields: [
        { name: "question", type: "relation", required: true, collectionId: questions.id, maxSelect: 1, cascadeDelete: true },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_text_questions_question ON text_questions (question)"],
    });
    app.save(textQuestions);

    const jobs = new Collection({
      type: "base",
      name: "jobs",
      fields: [
        { name: "company", type: "relation", required: true, collectionId: companies.id, maxSelect: 1, cascadeDelete: true },
        { name: "title", type: "text", required: true, min: 3, max: 128 },
        { name: "description", type: "text", required: true, min: 3, max: 5000 },
        { name: "location", type: "text", required: true, min: 3, max: 64 },
        { name: "questions", type: "relation", required: true, collectionId: questions.id, minSelect: 1, maxSelect: 999, cascadeDelete: false },
        ...timestamps(),
      ],
      indexes: ["CREATE INDEX idx_jobs_company ON jobs (company)"],
    });
    app.save(jobs);

    const candidates = new Collection({
      type: "base",
      name: "candidates",
      fields: [
        { name: "job", type: "relation", required: true, collectionId: jobs.id, maxSelect: 1, cascadeDelete: true },
        { name: "email", type: "email", required: true },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_candidates_job_email ON candidates (job, email)"],
    });
    app.save(candidates);

    const answers = new Collection({
      type: "base",
      name: "answers",
      fields: [
        { name: "candidate", type: "relation", required: true, collectionId: candidates.id, maxSelect: 1, cascadeDelete: true },
        { name: "question", type: "relation", required: true, collectionId: questions.id, maxSelect: 1, cascadeDelete: true },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_answers_candidate_question ON answers (candidate, question)",
        "CREATE INDEX idx_answers_question ON answers (question)",
      ],
    });
    app.save(answers);

    const videoAnswers = new Collection({
      type: "base",
      name: "video_answers",
      fields: [
        { name: "answer", type: "relation", required: true, collectionId: answers.id, maxSelect: 1, cascadeDelete: true },
        { name: "file", type: "file", required: true, maxSelect: 1, maxSize: VIDEO_MAX, mimeTypes: ["video/webm", "video/mp4"], protected: true },
        { name: "transcript", type: "text", max: 200000 },
        { name: "mimeType", type: "text", max: 100 },
        { name: "durationSeconds", type: "number", min: 0 },
        { name: "transcriptStatus", type: "select", maxSelect: 1, values: ["pending", "done", "failed"] },
        { name: "transcriptAttempts", type: "number", min: 0, onlyInt: true },
        ...timestamps(),
      ],
      indexes: [
        "CREATE UNIQUE INDEX idx_video_answers_answer ON video_answers (answer)",
        "CREATE INDEX idx_video_answers_status ON video_answers (transcriptStatus)",
      ],
    });
    app.save(videoAnswers);

    const textAnswers = new Collection({
      type: "base",
      name: "text_answers",
      fields: [
        { name: "answer", type: "relation", required: true, collectionId: answers.id, maxSelect: 1, cascadeDelete: true },
        { name: "content", type: "text", required: true, min: 1, max: 1000 },
        ...timestamps(),
      ],
      indexes: ["CREATE UNIQUE INDEX idx_text_answers_answer ON text_answers (answer)"],
    });
    app.save(textAnswers);

    // ---- access rules (decisions.md "Access model") ----
    // A direct multi-relation compared with ?= matches nothing in v0.39 ("managers ?= x"); comparing
    // the related ids ("managers.id ?= x") does what "any manager is x" means.
    const manages = (path) => `${AUTH} && ${path}.id ?= @request.auth.id`;
    const unchanged = (field) => `(@request.body.${field}:isset = false || @request.body.${field} = ${field})`;

    companies.listRule =
      `(${manages("managers")})` +
      ` || (${AUTH} && manager_invites_via_company.email ?= @request.auth.email)` +
      ` || (${IS_CAND} && jobs_via_company.candidates_via_job.id ?= ${CAND})`;
    companies.viewRule = companies.listRule;
    companies.createRule = AUTH;
    companies.updateRule = manages("managers");
    companies.deleteRule = manages("managers");
    app.save(companies);

    const inviteeOwn = `${AUTH} && email = @request.auth.email`;
    invites.listRule = `(${manages("company.managers")}) || (${inviteeOwn})`;
    invites.viewRule = invites.listRule;
    invites.createRule = manages("company.managers");
    invites.updateRule = null;
    invites.deleteRule = invites.listRule;
    app.save(invites);

    questions.listRule = `(${manages("company.managers")}) || (${IS_CAND} && jobs_via_questions.candidates_via_job.id ?= ${CAND})`;
    questions.viewRule = questions.listRule;
    questions.createRule = manages("company.managers");
    questions.updateRule = `${manages("company.managers")} && ${unchanged("company")}`;
    questions.deleteRule = manages("company.managers");
    app.save(questions);

    for (const kind of [videoQuestions, textQuestions]) {
      kind.listRule =
        `(${manages("question.company.managers")})` +
        ` || (${IS_CAND} && question.jobs_via_questions.candidates_via_job.id ?= ${CAND})`;
      kind.viewRule = kind.listRule;
      kind.createRule = manages("question.company.managers");
      kind.updateRule = `${manages("question.company.managers")} && ${unchanged("question")}`;
      kind.deleteRule = manages("question.company.managers");
      app.save(kind);
    }

    jobs.listRule = `(${manages("company.managers")}) || (${IS_CAND} && candidates_via_job.id ?= ${CAND})`;
    jobs.viewRule = jobs.listRule;
    jobs.createRule = manages("company.managers");
    jobs.updateRule = `${manages("company.managers")} && ${unchanged("company")}`;
    jobs.deleteRule = manages("company.managers");
    app.save(jobs);

    candidates.listRule = manages("job.company.managers");
    candidates.viewRule = `(${manages("job.company.managers")}) || (${IS_CAND} && id = ${CAND})`;
    candidates.createRule = manages("job.company.managers");
    candidates.updateRule = `${manages("job.company.managers")} && ${unchanged("job")}`;
    candidates.deleteRule = manages("job.company.managers");
    app.save(candidates);

    answers.listRule = `(${manages("candidate.job.company.managers")}) || (${IS_CAND} && candidate = ${CAND})`;
    answers.viewRule = answers.listRule;
    answers.createRule = `${IS_CAND} && candidate = ${CAND} && candidate.job.questions.id ?= question`;
    answers.updateRule = null;
    answers.deleteRule = manages("candidate.job.company.managers");
    app.save(answers);

    videoAnswers.listRule =
      `(${manages("answer.candidate.job.company.managers")})` +
      ` || (${IS_CAND} && answer.candidate = ${CAND} && @request.context != "protectedFile")`;
    videoAnswers.viewRule = videoAnswers.listRule;
    videoAnswers.createRule = `${IS_CAND} && answer.candidate = ${CAND}`;
    videoAnswers.updateRule = null;
    videoAnswers.deleteRule = manages("answer.candidate.job.company.managers");
    app.save(videoAnswers);

    textAnswers.listRule = `(${manages("answer.candidate.job.company.managers")}) || (${IS_CAND} && answer.candidate = ${CAND})`;
    textAnswers.viewRule = textAnswers.listRule;
    textAnswers.createRule = `${IS_CAND} && answer.candidate = ${CAND}`;
    textAnswers.updateRule = null;
    textAnswers.deleteRule = manages("answer.candidate.job.company.managers");
    app.save(textAnswers);
  },
  (app) => {
    for (const name of [
      "text_answers", "video_answers", "answers", "candidates", "jobs",
      "text_questions", "video_questions", "questions", "manager_invites",
    ]) {
      app.delete(app.findCollectionByNameOrId(name));
    }
    const users = app.findCollectionByNameOrId("users");
    for (const name of ["firstName", "lastName", "primaryCompany"]) users.fields.removeByName(name);
    app.save(users);
    app.delete(app.findCollectionByNameOrId("companies"));
  },
);
