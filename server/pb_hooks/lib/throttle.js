/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Throttling (issue 13, finding 3): PocketBase's rate limiter per client (sign-in, account e-mails, invites and
// candidate invites), and a budget of e-mails per recipient address across every flow that mails a third party
// (manager invites, candidate invites, password resets, verifications, replaced interview links), so nobody can make
// the product mail one address over and over. Every limit is "N/SECONDS" and comes from the environment, with the
// defaults below; RATE_LIMITS=off turns the per-client limits off (the per-address budget stays). Beside them: each
// manager's hourly cap of candidates invited by bulk actions (BULK_CANDIDATES_PER_HOUR, below), and the per-account
// sign-in throttle, in Go (pocketbase/signin_throttle.go, RATE_LIMIT_ACCOUNT_SIGNIN).

const DEFAULTS = {
  RATE_LIMIT_AUTH: "10/60", // sign-in attempts (password, OTP, OAuth2) per client
  RATE_LIMIT_ACCOUNT_MAIL: "5/600", // password reset, verification and e-mail change requests per client
  RATE_LIMIT_INVITES: "30/600", // manager invites and candidate invites created per client
  MAIL_PER_ADDRESS: "3/3600", // e-mails to one address from the flows above
};

/** {max, seconds} of a "N/SECONDS" setting; the default when unset, and the default (logged) when malformed. */
function limit(app, name) {
  const raw = String($os.getenv(name) || "").trim();
  const parse = (text) => {
    const m = /^([0-9]{1,9})\/([0-9]{1,9})$/.exec(text);
    return m && parseInt(m[1], 10) > 0 && parseInt(m[2], 10) > 0 ? { max: parseInt(m[1], 10), seconds: parseInt(m[2], 10) } : null;
  };
  const parsed = raw ? parse(raw) : null;
  if (raw && !parsed) app.logger().warn("throttle: a limit must read N/SECONDS; the default applies", "name", name, "value", raw);
  return parsed || parse(DEFAULTS[name]);
}

function rateLimitsEnabled() {
  return String($os.getenv("RATE_LIMITS") || "on").trim().toLowerCase() !== "off";
}

/**
 * Takes one e-mail to `address` from its budget of `kind`; false when the budget is spent (nothing is taken then).
 * Two budgets per address, each MAIL_PER_ADDRESS: "invite" (what managers make the product send: manager and
 * candidate invites, replaced interview links) and "account" (what the address's own account asks for: reset,
 * verification, e-mail change), so a manager spending an address's invites cannot keep its owner from a password
 * reset. Counted in the server's memory: a restart starts every budget afresh.
 */
function takeMailBudget(app, address, kind) {
  const { max, seconds } = limit(app, "MAIL_PER_ADDRESS");
  const key = "screenroomMailsTo:" + (kind === "account" ? "account:" : "invite:") + String(address || "").trim().toLowerCase();
  const now = Date.now();
  let allowed = false;
  // one atomic read-modify-write of the address's send times (a JSON list: plain data in PocketBase's store)
  app.store().setFunc(key, (old) => {
    const recent = (old ? JSON.parse(old) : []).filter((at) => now - at < seconds * 1000);
    allowed = recent.length < max;
    if (allowed) recent.push(now);
    return JSON.stringify(recent);
  });
  return allowed;
}

/**
 * Takes one invite action from the manager's budget (RATE_LIMIT_INVITES per manager, besides PocketBase's limit per
 * client): a single candidate invite is one action, a whole CSV import is one action however many rows and requests
 * it takes (decisions.md, issue 18). False when spent (nothing taken then); always true with RATE_LIMITS=off. In the
 * server's memory, as the per-address budget.
 */
function takeInviteAction(app, userId) {
  if (!rateLimitsEnabled()) return true;
  const { max, seconds } = limit(app, "RATE_LIMIT_INVITES");
  const key = "screenroomInviteActions:" + String(userId || "");
  const now = Date.now();
  let allowed = false;
  app.store().setFunc(key, (old) => {
    const recent = (old ? JSON.parse(old) : []).filter((at) => now - at < seconds * 1000);
    allowed = recent.length < max;
    if (allowed) recent.push(now);
    return JSON.stringify(recent);
  });
  return allowed;
}

const TOO_MANY_INVITES = "You have sent too many invites in a short time. Please try again later.";

/** 429 when the manager's invite actions are spent. */
function requireInviteAction(app, userId) {
  if (!takeInviteAction(app, userId)) throw new ApiError(429, TOO_MANY_INVITES, {});
}

const TOO_MANY_MAILS = "Too many e-mails were sent to this address. Please try again later.";

/** 429 on `field` when `address` has no e-mail left in its budget. */
function requireMailBudget(app, address, field) {
  if (takeMailBudget(app, address, "invite")) return;
  const data = {};
  data[field] = new ValidationError("validation_too_many_mails", TOO_MANY_MAILS);
  throw new ApiError(429, TOO_MANY_MAILS, data);
}

const TOO_MANY_RESENDS = "You sent many invitations again in a short time. Wait a few minutes, then try again.";

/**
 * 429 when the manager `userId` has resent RATE_LIMIT_INVITES invitations within its window (issue 16): resending
 * reaches candidates already made, so without it one manager could mail every candidate of a large job at once,
 * past the limit that creating them met. Per user rather than per client, counted like the per-address budget; off
 * with RATE_LIMITS=off, as the other per-client limits.
 */
function requireResendBudget(app, userId) {
  if (!rateLimitsEnabled()) return;
  const { max, seconds } = limit(app, "RATE_LIMIT_INVITES");
  const now = Date.now();
  let allowed = false;
  app.store().setFunc("screenroomResendsBy:" + userId, (old) => {
    const recent = (old ? JSON.parse(old) : []).filter((at) => now - at < seconds * 1000);
    allowed = recent.length < max;
    if (allowed) recent.push(now);
    return JSON.stringify(recent);
  });
  if (!allowed) throw new ApiError(429, TOO_MANY_RESENDS);
}

const BULK_DEFAULT_PER_HOUR = 2000; // decisions.md: 2,000 candidates an hour a manager
const BULK_WINDOW_MINUTES = 60;

/** BULK_CANDIDATES_PER_HOUR: candidates one manager may invite by bulk actions in an hour; the default when unset or malformed (logged). */
function bulkCandidatesPerHour(app) {
  const raw = String($os.getenv("BULK_CANDIDATES_PER_HOUR") || "").trim();
  if (!raw) return BULK_DEFAULT_PER_HOUR;
  if (/^[0-9]{1,9}$/.test(raw) && parseInt(raw, 10) > 0) return parseInt(raw, 10);
  app.logger().warn("throttle: BULK_CANDIDATES_PER_HOUR must be a positive number; the default applies", "value", raw);
  return BULK_DEFAULT_PER_HOUR;
}

/**
 * Takes up to `wanted` candidates (0: only looks) from the manager's hourly bulk allowance (decisions.md: a bulk
 * action counts the candidates it affects against BULK_CANDIDATES_PER_HOUR a manager, across imports and jobs, so a
 * stolen manager account cannot mail tens of thousands of addresses an hour 1,000 rows at a time). Returns
 * { minute, taken, limit, remaining, availableAt }: `taken` may be fewer than wanted (none when spent), `remaining`
 * is what is left after the take, `availableAt` (ISO) when the oldest candidates counted leave the window, null when
 * none are counted. Counts are kept per minute on the server's clock (lib/clock.js) for the last hour, so a
 * candidate counts for 60 to 61 minutes; in the server's memory, as the other budgets here. A caller gives back
 * what it took and did not use (giveBackBulkCandidates). Not lifted by RATE_LIMITS=off: it is a cap per manager, not a
 * per-client limit.
 */
function takeBulkCandidates(app, userId, wanted) {
  const limit = bulkCandidatesPerHour(app);
  const minute = Math.floor(require(`${__hooks}/lib/clock.js`).nowMs(app) / 60000);
  let taken = 0;
  let used = 0;
  let oldest = null;
  app.store().setFunc("screenroomBulkCandidates:" + String(userId || ""), (old) => {
    const counts = old ? JSON.parse(old) : {};
    used = 0;
    oldest = null;
    for (const key of Object.keys(counts)) {
      const at = parseInt(key, 10);
      if (at < minute - BULK_WINDOW_MINUTES || !(counts[key] > 0)) {
        delete counts[key];
        continue;
      }
      used += counts[key];
      if (oldest === null || at < oldest) oldest = at;
    }
    taken = Math.max(0, Math.min(wanted, limit - used));
    if (taken > 0) {
      counts[minute] = (counts[minute] || 0) + taken;
      used += taken;
      if (oldest === null || minute < oldest) oldest = minute;
    }
    return JSON.stringify(counts);
  });
  const availableAt = oldest === null ? null : new Date((oldest + BULK_WINDOW_MINUTES + 1) * 60000).toISOString();
  return { minute: minute, taken: taken, limit: limit, remaining: Math.max(0, limit - used), availableAt: availableAt };
}

/** Gives back `count` candidates taken at `minute` (takeBulkCandidates) and not invited. */
function giveBackBulkCandidates(app, userId, minute, count) {
  if (!(count > 0)) return;
  app.store().setFunc("screenroomBulkCandidates:" + String(userId || ""), (old) => {
    const counts = old ? JSON.parse(old) : {};
    const left = (counts[minute] || 0) - count;
    if (left > 0) counts[minute] = left;
    else delete counts[minute];
    return JSON.stringify(counts);
  });
}

/** The refusal of a bulk action when the manager's hourly allowance is spent: how many can be invited, and when. */
function bulkCapMessage(allowance) {
  const when = allowance.availableAt ? ` More can be invited from ${allowance.availableAt.slice(11, 16)} UTC.` : "";
  return `You can invite ${allowance.remaining} more candidates now: at most ${allowance.limit} an hour.${when}`;
}

module.exports = {
  rateLimitsEnabled,
  takeMailBudget,
  requireMailBudget,
  takeInviteAction,
  requireInviteAction,
  requireResendBudget,
  takeBulkCandidates,
  giveBackBulkCandidates,
  bulkCapMessage,
  TOO_MANY_MAILS,
  TOO_MANY_INVITES,
  TOO_MANY_RESENDS,
};
