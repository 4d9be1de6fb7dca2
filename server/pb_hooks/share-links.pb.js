/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Share links (issue 15 point 6): a read-only link to one candidate's review, for a colleague without an account.
// The collection share_links (pb_migrations/1732900000_review_workflow.js) is listed and viewed by the managers of the
// candidate's company and written by nobody through the records or batch API (create/update/delete rules null); these
// routes write it. Helpers and the token's rules: lib/share-links.js.
//
// - POST /api/screenroom/share-links {candidate, expiresInDays: 1 | 7 | 14 | 30 (default 14), includeFeedback}: a
//   manager of the candidate's company makes a link. 200 {link, token, url}: the token is in this answer only (the
//   server keeps its SHA-256). Anyone else, and an unknown candidate, gets the same 404, before the body is read.
// - POST /api/screenroom/share-links/{id}/revoke: the company's owner revokes any of its links, another manager of the
//   company only the links they made (revokedAt, revokedBy); a link already revoked stays as it was (who revoked it
//   first, and when). 200 the link. A manager of the company revoking another's link: 403, nothing written. Anyone
//   else: 404. (A removed manager's links are revoked by the server at removal: share_links_revoke.go.)
// - GET /api/screenroom/shared/{token}: anyone holding the token, no account: what the shared page shows (lib
//   sharedView), and the link's lastOpenedAt. 404 'This link is not valid.' (malformed or unknown), 410 'This link has
//   expired.' or 'This link was revoked.'. It reads no session and signs nobody in: no auth token, no cookie.
// - GET /api/screenroom/shared/{token}/videos/{videoAnswerId}: the video file of one of the link's candidate's answers,
//   streamed through the link's authority (the file field stays protected), with Range requests (seeking). The token's
//   answers as above; any other video: 404.

routerAdd("POST", "/api/screenroom/share-links", (e) => {
  const { fieldError, findByIdOrNull, requestUser, appUrl } = require(`${__hooks}/lib/util.js`);
  const shareLinks = require(`${__hooks}/lib/share-links.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  const user = requestUser(e);
  if (!user) throw notFound();
  const body = info.body || {};
  const candidate = typeof body.candidate === "string" ? findByIdOrNull(e.app, "candidates", body.candidate) : null;
  // the candidates' list rule: the managers of the job's company (the view rule also lets the candidate read itself)
  if (!candidate || !e.app.canAccessRecord(candidate, info, candidate.collection().listRule)) throw notFound();

  let days = shareLinks.DEFAULT_EXPIRY_DAYS;
  if (body.expiresInDays !== undefined && body.expiresInDays !== null && body.expiresInDays !== "") {
    days = Number(body.expiresInDays);
    if (shareLinks.EXPIRY_DAYS.indexOf(days) === -1) {
      throw fieldError("expiresInDays", "Choose 1, 7, 14 or 30 days.", "validation_invalid_value");
    }
  }
  let includeFeedback = false;
  if (body.includeFeedback !== undefined && body.includeFeedback !== null) {
    if (body.includeFeedback === true || body.includeFeedback === "true") includeFeedback = true;
    else if (body.includeFeedback !== false && body.includeFeedback !== "false" && body.includeFeedback !== "") {
      throw fieldError("includeFeedback", "Include ratings and comments, or not.", "validation_invalid_value");
    }
  }

  const token = shareLinks.newToken();
  const link = new Record(e.app.findCollectionByNameOrId("share_links"));
  link.set("candidate", candidate.id);
  link.set("createdBy", user.id);
  link.set("tokenHash", shareLinks.hashToken(token));
  link.set("expiresAt", shareLinks.dbDate(Date.now() + days * 24 * 60 * 60 * 1000));
  link.set("includeFeedback", includeFeedback);
  e.app.save(link);

  e.response.header().set("Cache-Control", "no-store");
  return e.json(200, { link: link, token: token, url: `${appUrl(e.app)}/shared/${token}` });
});

routerAdd("POST", "/api/screenroom/share-links/{id}/revoke", (e) => {
  const { findByIdOrNull, requestUser, runRefusable } = require(`${__hooks}/lib/util.js`);
  const { dbDate } = require(`${__hooks}/lib/share-links.js`);
  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const info = e.requestInfo();
  const user = requestUser(e);
  if (!user) throw notFound();
  const found = findByIdOrNull(e.app, "share_links", e.request.pathValue("id"));
  if (!found || !e.app.canAccessRecord(found, info, found.collection().listRule)) throw notFound();
  if (found.getString("createdBy") !== user.id) {
    const candidate = findByIdOrNull(e.app, "candidates", found.getString("candidate"));
    const job = candidate ? findByIdOrNull(e.app, "jobs", candidate.getString("job")) : null;
    const company = job ? findByIdOrNull(e.app, "companies", job.getString("company")) : null;
    if (!company || company.getString("owner") !== user.id) {
      throw new ForbiddenError("Only the owner of the company can revoke a link another manager made.");
    }
  }

  let link = found;
  runRefusable(e.app, (txApp) => {
    link = txApp.findRecordById("share_links", found.id);
    if (link.getString("revokedAt")) return; // already revoked: kept as it was
    link.set("revokedAt", dbDate(Date.now()));
    link.set("revokedBy", user.id);
    txApp.save(link);
  });
  return e.json(200, link);
});

routerAdd("GET", "/api/screenroom/shared/{token}", (e) => {
  const { linkOfToken, sharedView, dbDate } = require(`${__hooks}/lib/share-links.js`);
  // a revoked link must not live on in a cache
  e.response.header().set("Cache-Control", "no-store");
  const token = e.request.pathValue("token");
  const { link, error } = linkOfToken(e.app, token);
  if (error) throw error;

  const view = sharedView(e.app, link, token);
  // when it was last opened, for the managers' list (a plain column write: no hooks, no realtime event, `updated`
  // kept: opening the page is not an edit of the link)
  e.app
    .db()
    .newQuery("UPDATE share_links SET lastOpenedAt = {:at} WHERE id = {:id}")
    .bind({ at: dbDate(Date.now()), id: link.id })
    .execute();
  return e.json(200, view);
});

routerAdd("GET", "/api/screenroom/shared/{token}/videos/{videoAnswerId}", (e) => {
  const { findByIdOrNull } = require(`${__hooks}/lib/util.js`);
  const { linkOfToken } = require(`${__hooks}/lib/share-links.js`);
  e.response.header().set("Cache-Control", "no-store");
  const { link, error } = linkOfToken(e.app, e.request.pathValue("token"));
  if (error) throw error;

  const notFound = () => new NotFoundError("The requested resource wasn't found.");
  const video = findByIdOrNull(e.app, "video_answers", e.request.pathValue("videoAnswerId"));
  const answer = video ? findByIdOrNull(e.app, "answers", video.getString("answer")) : null;
  // only the link's candidate's answers
  if (!answer || answer.getString("candidate") !== link.getString("candidate")) throw notFound();
  const file = video.getString("file");
  if (!file) throw notFound();

  // The type the server derived for the stored file (answers.pb.js, the media worker): what the browser's player needs.
  const mimeType = video.getString("mimeType");
  if (mimeType === "video/webm" || mimeType === "video/mp4") e.response.header().set("Content-Type", mimeType);
  // PocketBase's own file route unsets the global X-Frame-Options for files; a video is played in the page, not framed
  const fsys = e.app.newFilesystem();
  try {
    // http.ServeContent underneath: Range (206 with Content-Range), If-Range, HEAD, Content-Length
    fsys.serve(e.response, e.request, `${video.baseFilesPath()}/${file}`, file);
  } catch (err) {
    throw notFound();
  } finally {
    fsys.close();
  }
  return null;
});
