/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Throttling on (issue 13, finding 3): PocketBase's rate limiter enabled. Its rules (sign-in, account e-mails,
// invites and candidate invites, per client) are the product's, from pb_hooks/lib/throttle.js with the environment's
// values (RATE_LIMITS, RATE_LIMIT_*), applied by pb_hooks/settings.pb.js whenever the settings load.

migrate(
  (app) => {
    const settings = app.settings();
    settings.rateLimits.enabled = true;
    app.save(settings);
  },
  (app) => {
    const settings = app.settings();
    settings.rateLimits.enabled = false;
    settings.rateLimits.rules = [];
    app.save(settings);
  },
);
