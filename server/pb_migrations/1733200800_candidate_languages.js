/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Candidates in their own language, and the company speaking in its own name:
// - jobs.language: the language of everything the job's candidates meet (screens, e-mails, pages) and of their
//   transcripts; empty reads as English.
// - candidates.language: the language the candidate chose with the switcher (empty: the job's); their e-mails follow
//   it. Written only by the interview's language route (the server), never through the records API.
// - companies.timeZone: an IANA zone name (empty reads as UTC) in which e-mails state times, with its name.
// - companies.mailFooterOff: the company signs its e-mails alone, without the product's footer line.
// - audit_log.actorKind: who removed a candidate: a manager (actor set), the candidate themself (their own
//   withdrawal), retention, or the system (a superuser, a job's delete); action "withdraw" is the candidate's own.
// - withdrawn_links: the hash of a withdrawn candidate's key, so the link can still say that they withdrew and that
//   their answers were deleted once nothing else of them is left. No rules: the server alone reads and writes it.

const LANGUAGES = ["en", "de", "fr", "es", "nl", "pt", "it", "pl", "ar"];
const ACTIONS_BEFORE = ["export", "erase", "retention_erase", "delete", "job_delete"];

migrate(
  (app) => {
    const jobs = app.findCollectionByNameOrId("jobs");
    jobs.fields.add(new SelectField({ name: "language", maxSelect: 1, values: LANGUAGES }));
    app.save(jobs);

    const candidates = app.findCollectionByNameOrId("candidates");
    candidates.fields.add(new SelectField({ name: "language", maxSelect: 1, values: LANGUAGES }));
    app.save(candidates);

    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.add(new TextField({ name: "timeZone", max: 64 }));
    companies.fields.add(new BoolField({ name: "mailFooterOff" }));
    app.save(companies);

    const log = app.findCollectionByNameOrId("audit_log");
    log.fields.getByName("action").values = [...ACTIONS_BEFORE, "withdraw"];
    log.fields.add(
      new SelectField({ name: "actorKind", maxSelect: 1, values: ["manager", "candidate", "retention", "system"] }),
    );
    app.save(log);

    const withdrawn = new Collection({
      type: "base",
      name: "withdrawn_links",
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { name: "keyHash", type: "text", required: true, max: 64 },
        { name: "language", type: "select", maxSelect: 1, values: LANGUAGES },
        { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      ],
      indexes: ["CREATE UNIQUE INDEX idx_withdrawn_links_key ON withdrawn_links (keyHash)"],
    });
    app.save(withdrawn);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("withdrawn_links"));
    const log = app.findCollectionByNameOrId("audit_log");
    log.fields.removeByName("actorKind");
    log.fields.getByName("action").values = ACTIONS_BEFORE;
    app.save(log);
    const companies = app.findCollectionByNameOrId("companies");
    companies.fields.removeByName("timeZone");
    companies.fields.removeByName("mailFooterOff");
    app.save(companies);
    for (const name of ["jobs", "candidates"]) {
      const c = app.findCollectionByNameOrId(name);
      c.fields.removeByName("language");
      app.save(c);
    }
  },
);
