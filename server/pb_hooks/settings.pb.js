/// <reference path="../../.cache/pocketbase/types.d.ts" />
// APP_URL, SMTP_*, the sender (MAIL_FROM, MAIL_FROM_NAME), the proxy header, backups (BACKUPS_CRON, BACKUPS_MAX_KEEP),
// object storage (S3_*) and the rate limits (RATE_LIMITS, RATE_LIMIT_*) from the environment win over stored settings,
// so links in e-mails and the mail server follow
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
  // Object storage (issue 19): with S3_BUCKET set, uploaded files (answers' videos, logos) go to that bucket through
  // PocketBase's S3 filesystem instead of pb_data/storage. The database and the staged parts of takes stay on local
  // disk (README "Storage"). Unset: the stored settings (local storage unless the dashboard turned S3 on) are kept.
  const s3Bucket = $os.getenv("S3_BUCKET");
  if (s3Bucket) {
    // a server meant to store on S3 does not start storing on local disk instead: it refuses to start, saying why
    const missing = ["S3_ENDPOINT", "S3_ACCESS_KEY", "S3_SECRET"].filter((name) => !$os.getenv(name));
    if (missing.length) throw new Error(`S3_BUCKET is set, but ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not: set them too, or unset S3_BUCKET to store files on local disk.`);
    const wanted = {
      enabled: true,
      bucket: s3Bucket,
      region: $os.getenv("S3_REGION") || "us-east-1",
      endpoint: $os.getenv("S3_ENDPOINT"),
      accessKey: $os.getenv("S3_ACCESS_KEY"),
      secret: $os.getenv("S3_SECRET"),
      // most servers other than AWS (MinIO, versitygw, Garage) want path-style URLs: on unless "false"
      forcePathStyle: ($os.getenv("S3_FORCE_PATH_STYLE") || "true").trim().toLowerCase() !== "false",
    };
    for (const key of Object.keys(wanted)) {
      if (settings.s3[key] !== wanted[key]) {
        settings.s3[key] = wanted[key];
        changed = true;
      }
    }
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
