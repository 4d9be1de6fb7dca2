/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Rule 9: an answer's kind matches its question's kind, one kind record per answer; a new video
// answer waits for the media worker (transcriptStatus pending). (That a candidate answers only its own
// job's questions, once, is the create rule plus the unique index on (candidate, question).)

onRecordValidate((e) => {
  const { refuseDuplicate } = require(`${__hooks}/lib/util.js`);
  const values = { candidate: e.record.getString("candidate"), question: e.record.getString("question") };
  refuseDuplicate(e.app, e.record, "answers", values, "question", "This question has already been answered");
  e.next();
}, "answers");

onRecordValidate((e) => {
  const { fieldError, findByIdOrNull, findFirstOrNull, questionKind } = require(`${__hooks}/lib/util.js`);
  const name = e.record.collection().name;
  const kind = name === "video_answers" ? "video" : "text";
  const answer = findByIdOrNull(e.app, "answers", e.record.getString("answer"));
  if (answer) {
    if (questionKind(e.app, answer.getString("question")) !== kind) {
      throw fieldError("answer", `This question does not take a ${kind} answer.`);
    }
    const other = kind === "video" ? "text_answers" : "video_answers";
    const sameOrOther =
      findFirstOrNull(e.app, other, "answer = {:a}", { a: answer.id }) ||
      findFirstOrNull(e.app, name, "answer = {:a} && id != {:id}", { a: answer.id, id: e.record.id });
    if (sameOrOther) throw fieldError("answer", "This question has already been answered", "validation_not_unique");
  }
  e.next();
}, "video_answers", "text_answers");

onRecordCreate((e) => {
  const files = e.record.get("file");
  const file = Array.isArray(files) ? files[0] : files;
  // the one place a new video answer becomes pending (a superuser's create may bring its own status)
  if (!e.record.getString("transcriptStatus")) e.record.set("transcriptStatus", "pending");
  if (!e.record.getString("mimeType") && file && file.name) {
    e.record.set("mimeType", /\.mp4$/i.test(file.name) ? "video/mp4" : "video/webm");
  }
  e.next();
}, "video_answers");

// An answer exists only with its kind record (rule 9): candidates store answers through POST
// /api/screenroom/answers below, which creates both in one transaction. The records API and the batch API (which
// runs these same request hooks per item) would store a bare answer that counts its question as answered, or a kind
// record of the client's making: refused for everyone but superusers (seed scripts, tools).
onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth()) throw new BadRequestError("Answers are stored with POST /api/screenroom/answers.");
  e.next();
}, "answers", "video_answers", "text_answers");

// POST /api/screenroom/answers (multipart or JSON), header X-Candidate-Key: id (client-made), question, and either `file` (a video
// answer) or `content` (a text answer). Creates the answer and its kind record in one transaction, so a refused kind
// record leaves no answer behind (rule 9), in one plain request: the batch API re-encodes every file it carries, which
// made a 20 MB answer take three times as long as a plain upload (issue 8).
// Access is exactly the collections' create rules, checked on each record inside the transaction. Errors have the
// collection API's shape: 400 with data.{field}.message. A retry with the same id is refused (the id exists), never a
// second answer. 200 {answer, kind: "video_answers" | "text_answers", record}.
// A video answer's file may instead be the take staged in parts under the answer's id while it was recorded
// (takes.pb.js): `staged` (true), `size` (its total bytes) and `fileName` ("answer.webm" or "answer.mp4"), in JSON or
// multipart. The take must be live (not retired: replaced by a newer take or discarded, checked again inside the
// transaction that stores the answer) and the same candidate's and question's, its parts contiguous from 0 to exactly
// `size`; they are joined Go-side into one file that is stored like an uploaded one, and the take (row and dir) is
// removed on success. Anything else (no such take, someone else's, retired, a gap, another size) is 409 "The take
// is not complete on the server." and nothing is created: the client then uploads the whole file. A whole-file
// answer also removes a take staged under its id (the client's fallback after a refused part or a 409).
// Takes are counted (lib/progress.js): a video answer whose take was never staged counts one, refused (403) when the
// question has none left (its takes plus the candidate's extraTakes).
// Issue 17 (lib/interview-rules.js), 403 with a code in data.interview: withdrawn; deadline_passed (after the
// deadline, except in its grace window for what was under way before it); time_over (a text answer later than its
// opening + its time + 5 minutes); answer_too_long (a video answer's decoded length over its time + 3 s).
routerAdd(
  "POST",
  "/api/screenroom/answers",
  (e) => {
    const { canCreateAnswer, clearDerivedVideoFields, questionKind, requestCandidate, runRefusable } = require(`${__hooks}/lib/util.js`);
    const submit = require(`${__hooks}/lib/take-submit.js`);
    const info = e.requestInfo();
    const body = info.body || {};
    const text = (name) => (typeof body[name] === "string" ? body[name] : "");
    // The candidate is the one whose key the request presents (X-Candidate-Key); `candidate` in the body may be left
    // out or name the same candidate (by id or key).
    const presented = requestCandidate(e);
    // Refused before anything is read or validated, so the answer says nothing about someone else's candidate (that
    // it exists, which questions it answered): no valid key, or a body naming another candidate than the key's.
    const named = text("candidate");
    if (!presented || (named && named !== presented.id && named !== presented.getString("secret"))) {
      throw new BadRequestError("Failed to create record.");
    }
    // Issue 17: before the candidate agreed on the start screen, nothing is stored (403, before the body is read).
    require(`${__hooks}/lib/util.js`).requireConsent(presented);

    let files = [];
    const contentType = String(e.request.header.get("Content-Type") || "");
    if (contentType.toLowerCase().indexOf("multipart/form-data") === 0) {
      try {
        files = e.findUploadedFiles("file");
      } catch (err) {
        // No file part is a text answer (or a video answer missing its file, which validation reports).
        if (String(err).indexOf("no such file") === -1) throw err;
      }
    }
    const hasContent = Object.prototype.hasOwnProperty.call(body, "content");
    if (files.length && hasContent) throw new BadRequestError("Send either a file or content, not both.");
    if (files.length > 1) throw new BadRequestError("Send one file.");

    // The staged take instead of the file: joined here, before the transaction (lib/takes.js).
    const isStaged = body.staged === true || body.staged === "true";
    if (isStaged && (files.length || hasContent || Object.prototype.hasOwnProperty.call(body, "file"))) {
      throw new BadRequestError("Send either a staged take, a file or content, not more than one.");
    }
    const kindName =
      files.length || isStaged
        ? "video_answers"
        : hasContent
          ? "text_answers"
          : questionKind(e.app, text("question")) === "video"
            ? "video_answers"
            : "text_answers";

    // Issue 17 (lib/interview-rules.js): withdrawn refuses everything; after the deadline only what was under way
    // before it is taken, within the grace window: a staged take whose first part came before it, an answer to a
    // question opened before it. A text answer comes within its time (+ tolerance) from the question's opening.
    const rules = require(`${__hooks}/lib/interview-rules.js`);
    // A video answer started with its question's opening, or with the take staged under its id (submitted, or sent
    // whole as the client's fallback), whichever came first.
    const takeRow = kindName === "video_answers" ? require(`${__hooks}/lib/takes.js`).findRow(e.app, text("id")) : null;
    const openedMs = rules.openedAtMs(e.app, presented.id, text("question"));
    const stagedMs =
      takeRow && takeRow.getString("candidate") === presented.id ? require(`${__hooks}/lib/clock.js`).parseDbTime(takeRow.getString("created")) : NaN;
    const startedMs = Number.isFinite(stagedMs) && !(openedMs <= stagedMs) ? stagedMs : openedMs;
    rules.requireAnswerable(e.app, presented, startedMs);
    const askedQuestion = require(`${__hooks}/lib/util.js`).findByIdOrNull(e.app, "questions", text("question"));
    if (kindName === "text_answers" && askedQuestion) rules.requireTextInTime(e.app, presented, askedQuestion, openedMs);

    const staged = isStaged
      ? submit.stagedAnswerFile(e.app, {
          id: text("id"),
          candidate: presented.id,
          question: text("question"),
          size: body.size,
          fileName: text("fileName"),
        })
      : null;

    let answer = null;
    let kind = null;
    let stored = false;
    try {
      runRefusable(e.app, (txApp, refuse) => {
        if (staged) staged.check(txApp, refuse);
        const answers = txApp.findCollectionByNameOrId("answers");
        answer = new Record(answers);
        if (text("id")) answer.set("id", text("id"));
        answer.set("candidate", presented.id);
        answer.set("question", text("question"));
        txApp.save(answer);
        // The create rule sees the saved record, inside the transaction: a refusal rolls it back before any file is stored.
        if (!canCreateAnswer(txApp, info, answer)) throw new BadRequestError("Failed to create record.");

        const kindCollection = txApp.findCollectionByNameOrId(kindName);
        kind = new Record(kindCollection);
        kind.set("answer", answer.id);
        if (kindName === "video_answers") {
          // A whole file none of which was staged is a take the server sees start only now: it counts (lib/progress.js).
          // One staged under the answer's id was counted with its first part, like a staged take submitted.
          if (!staged && !require(`${__hooks}/lib/takes.js`).wasStaged(txApp, answer.id, presented.id, text("question"))) {
            require(`${__hooks}/lib/progress.js`).countTake(txApp, presented.id, text("question"), refuse);
          }
          if (files.length) kind.set("file", files[0]);
          if (staged && staged.file) kind.set("file", staged.file);
          // What onRecordCreateRequest does for the collection API (a custom route does not trigger it).
          clearDerivedVideoFields(kind);
        } else {
          kind.set("content", text("content"));
        }
        txApp.save(kind);
        if (!txApp.canAccessRecord(kind, info, kindCollection.createRule)) throw new BadRequestError("Failed to create record.");
        // The stored file's decoded length within the candidate's time (+ tolerance): a refusal rolls back the answer
        // and its file. Judged on the stored bytes, whichever way they came (a whole file or a staged take).
        if (kindName === "video_answers" && askedQuestion && kind.getString("file")) {
          try {
            rules.withStoredFile(txApp, kind, "file", (path) => rules.requireVideoInTime(txApp, presented, askedQuestion, path));
          } catch (err) {
            refuse(err);
          }
        }
      });
      stored = true;
    } finally {
      if (staged) staged.finish(stored); // a refused answer keeps its staged parts (the cron removes them)
    }
    // The answer is stored: the staged takes of its question are of no more use.
    submit.settleTakes(e.app, answer);
    return e.json(200, { answer: answer, kind: kindName, record: kind });
  },
  // The collection API allows 32 MB plus the file fields' sizes: the same for the video field.
  $apis.bodyLimit(require(`${__hooks}/lib/limits.js`).BODY_BASE_BYTES + require(`${__hooks}/lib/limits.js`).VIDEO_MAX_BYTES),
);
