/// <reference path="../../.cache/pocketbase/types.d.ts" />
// APP_URL and SMTP_* from the environment win over stored settings on every start, so links in
// e-mails and the mail catcher follow the process that runs the server (dev, tests, production).
onBootstrap((e) => {
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
  if (changed) e.app.save(settings);
});
