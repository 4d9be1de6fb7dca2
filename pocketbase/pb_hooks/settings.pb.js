/// <reference path="../../.cache/pocketbase/types.d.ts" />
// APP_URL, SMTP_*, the sender (MAIL_FROM, MAIL_FROM_NAME), the proxy header, backups (BACKUPS_CRON, BACKUPS_MAX_KEEP)
// and the rate limits (RATE_LIMITS, RATE_LIMIT_*) from the environment win over stored settings, so links in e-mails and the mail server follow
// the process that runs the server (dev, tests, production). A variable that is unset or empty leaves the stored
// value (what the dashboard saved) as it is.
// Applied whenever the settings are (re)loaded, not only on bootstrap: `serve` runs pending migrations after
// bootstrap, and on a first start the settings migration (1732000001_settings.js) saves SMTP TLS as false; a save
// from the dashboard cannot undo a variable either. Saving here reloads once more and then finds nothing to change.
onSettingsReload((e) => {
  e.next();
  const settings = e.app.settings();
  let changed = false;
  const appUrl = $os.getenv("APP_URL");
  if (appUrl && settings.meta.appURL !== appUrl) {
    settings.meta.appURL = appUrl;
    changed = true;
  }
  const smtpHost = $os.getenv("SMTP_HOST");
  if (smtpHost && settings.smtp.host !== smtpHost) {
    settings.smtp.host = smtpHost;
    changed = true;
  }
  const smtpPort = parseInt($os.getenv("SMTP_PORT") || "0", 10);
  if (smtpPort && settings.smtp.port !== smtpPort) {
    settings.smtp.port = smtpPort;
    changed = true;
  }
  // A production mail server wants credentials and TLS (issue 13); the password is never echoed by the settings API.
  const smtpUsername = $os.getenv("SMTP_USERNAME");
  if (smtpUsername && settings.smtp.username !== smtpUsername) {
    settings.smtp.username = smtpUsername;
    changed = true;
  }
  const smtpPassword = $os.getenv("SMTP_PASSWORD");
  if (smtpPassword && settings.smtp.password !== smtpPassword) {
    settings.smtp.password = smtpPassword;
    changed = true;
  }
  // true: TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it.
  const smtpTls = ($os.getenv("SMTP_TLS") || "").trim().toLowerCase();
  if (smtpTls === "true" || smtpTls === "false") {
    const tls = smtpTls === "true";
    if (settings.smtp.tls !== tls) {
      settings.smtp.tls = tls;
      changed = true;
    }
  } else if (smtpTls) {
    e.app.logger().warn("settings: SMTP_TLS must be true or false; the stored value is kept", "SMTP_TLS", smtpTls);
  }
  // The sender of every e-mail (issue 19): the settings migration only read MAIL_FROM on the very first start.
  const mailFrom = ($os.getenv("MAIL_FROM") || "").trim();
  if (mailFrom && settings.meta.senderAddress !== mailFrom) {
    settings.meta.senderAddress = mailFrom;
    changed = true;
  }
  const mailFromName = ($os.getenv("MAIL_FROM_NAME") || "").trim();
  if (mailFromName && settings.meta.senderName !== mailFromName) {
    settings.meta.senderName = mailFromName;
    changed = true;
  }
  // Behind a reverse proxy every request comes from the proxy's address: the rate limits would count all clients as
  // one. TRUSTED_PROXY_HEADERS names the header the proxy sets (deploy/nginx: X-Real-IP); only set it when PocketBase
  // listens on loopback behind that proxy, or a client could send the header itself.
  const proxyHeaders = ($os.getenv("TRUSTED_PROXY_HEADERS") || "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (proxyHeaders.length && JSON.stringify(settings.trustedProxy.headers || []) !== JSON.stringify(proxyHeaders)) {
    settings.trustedProxy.headers = proxyHeaders;
    changed = true;
  }
  // Backups (issue 19): PocketBase's own zip of pb_data (database and local files) on a cron, the oldest removed
  // beyond BACKUPS_MAX_KEEP. "off" turns the cron off; unset leaves what the dashboard saved.
  const backupsCron = ($os.getenv("BACKUPS_CRON") || "").trim();
  if (backupsCron) {
    const cron = backupsCron.toLowerCase() === "off" ? "" : backupsCron;
    if (settings.backups.cron !== cron) {
      settings.backups.cron = cron;
      changed = true;
    }
  }
  const backupsMaxKeep = parseInt($os.getenv("BACKUPS_MAX_KEEP") || "0", 10);
  if (backupsMaxKeep > 0 && settings.backups.cronMaxKeep !== backupsMaxKeep) {
    settings.backups.cronMaxKeep = backupsMaxKeep;
    changed = true;
  }
  // Per-client rate limits (lib/throttle.js): rules from the environment, on unless RATE_LIMITS=off.
  const { rateLimitRules, rateLimitsEnabled } = require(`${__hooks}/lib/throttle.js`);
  const rules = rateLimitRules(e.app);
  const enabled = rateLimitsEnabled();
  const current = JSON.stringify({ enabled: settings.rateLimits.enabled, rules: JSON.parse(JSON.stringify(settings.rateLimits.rules || [])) });
  if (current !== JSON.stringify({ enabled: enabled, rules: rules })) {
    settings.rateLimits.enabled = enabled;
    settings.rateLimits.rules = rules;
    changed = true;
  }
  if (changed) e.app.save(settings);
});
