/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Share links (issue 15 point 6; routes in share-links.pb.js, schema in pb_migrations/1732900000_review_workflow.js).
// A link's token is 43 characters of [A-Za-z0-9] from crypto/rand ($security.randomString): 43 × log2(62) ≈ 256
// random bits. Only its SHA-256 (hex) is stored, in the hidden `tokenHash` (decisions.md: "Share-link tokens carry at
// least 128 random bits, are stored hashed, and no filter reaches them"); the token itself is shown once, in the
// create route's answer.

const TOKEN_LENGTH = 43;
const TOKEN_PATTERN = /^[A-Za-z0-9]{43}$/;
/** The expiries a manager chooses from, in days; 14 when the request names none. */
const EXPIRY_DAYS = [1, 7, 14, 30];
const DEFAULT_EXPIRY_DAYS = 14;

const MESSAGES = {
  notValid: "This link is not valid.",
  expired: "This link has expired.",
  revoked: "This link was revoked.",
};

function newToken() {
  return $security.randomString(TOKEN_LENGTH);
}

function hashToken(token) {
  return $security.sha256(token);
}

/** A date as PocketBase stores it ("2024-01-31 09:15:00.000Z"). */
function dbDate(ms) {
  return new Date(ms).toISOString().replace("T", " ");
}

/** A stored date in ms since the epoch, or NaN for an empty one. */
function dateMs(value) {
  const text = String(value || "");
  return text ? new Date(text.replace(" ", "T")).getTime() : NaN;
}

/**
 * The link a token opens, or the ApiError to answer: 404 for a malformed or unknown token (the same body either way:
 * nothing about which tokens exist), 410 for a revoked or an expired one (revoked first: it is the manager's act,
 * and a revoked link stays revoked whatever its date).
 */
function linkOfToken(app, token) {
  const text = String(token || "");
  const notValid = new NotFoundError(MESSAGES.notValid);
  if (!TOKEN_PATTERN.test(text)) return { error: notValid };
  let link = null;
  try {
    link = app.findFirstRecordByFilter("share_links", "tokenHash = {:hash}", { hash: hashToken(text) });
  } catch (_) {
    return { error: notValid };
  }
  // a link whose maker no longer manages its company answers as revoked: removing a manager revokes their links
  // (share_links_revoke.go), and this holds even where that did not happen
  if (link.getString("revokedAt") || !makerManages(app, link)) return { error: new ApiError(410, MESSAGES.revoked) };
  if (!(dateMs(link.getString("expiresAt")) > Date.now())) return { error: new ApiError(410, MESSAGES.expired) };
  return { link: link };
}

/** Whether the link's maker still manages the company of the link's candidate's job. */
function makerManages(app, link) {
  const { findByIdOrNull, isManager } = require(`${__hooks}/lib/util.js`);
  const candidate = findByIdOrNull(app, "candidates", link.getString("candidate"));
  const job = candidate ? findByIdOrNull(app, "jobs", candidate.getString("job")) : null;
  const company = job ? findByIdOrNull(app, "companies", job.getString("company")) : null;
  return !!company && isManager(company, link.getString("createdBy"));
}

function userName(user) {
  if (!user) return "";
  return `${user.getString("firstName")} ${user.getString("lastName")}`.trim();
}

/** The transcript's timed segments ([{start, end, text}]), or null when the worker stored none. */
function segmentsOf(videoAnswer) {
  const raw = videoAnswer.getString("transcriptSegments");
  if (!raw || raw === "null") return null;
  try {
    const parsed = JSON.parse(raw);
    if (!Array.isArray(parsed)) return null;
    return parsed
      .filter((s) => s && typeof s.start === "number" && typeof s.end === "number" && typeof s.text === "string")
      .map((s) => ({ start: s.start, end: s.end, text: s.text }));
  } catch (_) {
    return null;
  }
}

/** The streaming route of a video answer, a path on the API's origin. */
function videoPath(token, videoAnswerId) {
  return `/api/screenroom/shared/${token}/videos/${videoAnswerId}`;
}

/**
 * What the shared page shows of the link's candidate, and nothing else: the company's name (and its logo, a public
 * file: companies' `logo` is not protected), the job's title, the candidate's e-mail, the job's questions in order
 * with the candidate's answer to each; only with `includeFeedback`, the managers' ratings (per answer: the average,
 * how many, each manager's name and stars) and comments (author's name, time, text). No record ids but the video
 * answers' (the streaming route names them).
 */
function sharedView(app, link, token) {
  const { kindsOf } = require(`${__hooks}/lib/util.js`);
  const candidate = app.findRecordById("candidates", link.getString("candidate"));
  const job = app.findRecordById("jobs", candidate.getString("job"));
  const company = app.findRecordById("companies", job.getString("company"));
  const includeFeedback = link.getBool("includeFeedback");

  const answers = app.findAllRecords("answers", $dbx.hashExp({ candidate: candidate.id }));
  // the job's questions, then any answered one the job no longer asks (issue 16: history stays true)
  const questions = require(`${__hooks}/lib/history.js`).reviewedQuestions(app, job, answers);
  const questionKinds = kindsOf(app, ["video_questions", "text_questions"], "question", questions.map((q) => q.id));
  const answerKinds = kindsOf(app, ["video_answers", "text_answers"], "answer", answers.map((a) => a.id));
  const answerOf = {};
  for (const answer of answers) answerOf[answer.getString("question")] = answer;

  const ratingsOf = {};
  const names = {};
  let comments = [];
  if (includeFeedback) {
    const ratings = app.findAllRecords("ratings", $dbx.hashExp({ candidate: candidate.id }));
    comments = app.findRecordsByFilter("comments", "candidate = {:c}", "created,id", 0, 0, { c: candidate.id });
    const people = {};
    for (const r of ratings) people[r.getString("manager")] = true;
    for (const c of comments) people[c.getString("author")] = true;
    const ids = Object.keys(people);
    if (ids.length) for (const user of app.findRecordsByIds("users", ids)) names[user.id] = userName(user);
    for (const r of ratings) {
      const key = r.getString("answer");
      (ratingsOf[key] = ratingsOf[key] || []).push(r);
    }
  }

  const shownQuestions = [];
  for (const question of questions) {
    const kind = questionKinds[question.id];
    const answer = answerOf[question.id];
    const answerKind = answer ? answerKinds[answer.id] : null;
    let shown = null;
    if (answerKind && answerKind.name === "video_answers") {
      const video = answerKind.record;
      shown = {
        kind: "video",
        id: video.id,
        url: videoPath(token, video.id),
        mimeType: video.getString("mimeType"),
        durationSeconds: video.getFloat("durationSeconds"),
        transcriptStatus: video.getString("transcriptStatus"),
        transcript: video.getString("transcript"),
        transcriptSegments: segmentsOf(video),
      };
    } else if (answerKind && answerKind.name === "text_answers") {
      shown = { kind: "text", content: answerKind.record.getString("content") };
    }
    if (shown && includeFeedback) {
      const given = (ratingsOf[answer.id] || []).slice().sort((a, b) => (a.getString("created") < b.getString("created") ? -1 : 1));
      const total = given.reduce((sum, r) => sum + r.getInt("stars"), 0);
      shown.ratings = {
        average: given.length ? Math.round((total / given.length) * 100) / 100 : null,
        count: given.length,
        byManager: given.map((r) => ({ managerName: names[r.getString("manager")] || "", stars: r.getInt("stars") })),
      };
    }
    shownQuestions.push({
      // as the candidate was asked it (the answer's snapshot), not as the question reads since
      title: (answer && answer.getString("questionTitle")) || question.getString("title"),
      kind: (answer && answer.getString("questionKind")) || (kind ? (kind.name === "video_questions" ? "video" : "text") : null),
      answer: shown,
    });
  }

  const logo = company.getString("logo");
  const view = {
    companyName: company.getString("name"),
    // a public file (the field is not protected), its 100x100 thumb
    companyLogoUrl: logo ? `/api/files/companies/${company.id}/${encodeURIComponent(logo)}?thumb=100x100` : null,
    jobTitle: job.getString("title"),
    candidateEmail: candidate.getString("email"),
    includeFeedback: includeFeedback,
    questions: shownQuestions,
  };
  if (includeFeedback) {
    view.comments = comments.map((c) => ({
      authorName: names[c.getString("author")] || "",
      created: c.getString("created"),
      text: c.getString("text"),
    }));
  }
  return view;
}

module.exports = {
  TOKEN_LENGTH,
  EXPIRY_DAYS,
  DEFAULT_EXPIRY_DAYS,
  MESSAGES,
  newToken,
  hashToken,
  dbDate,
  linkOfToken,
  sharedView,
};
