/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Application settings and account e-mail templates. APP_URL and SMTP_* are read from the environment
// when the migration runs; pb_hooks/settings.pb.js re-applies them on every start so a moved instance
// keeps working links.

const SPA_LINKS = {
  verificationTemplate: {
    subject: "Confirm your {APP_NAME} e-mail",
    body:
      "<p>Hello,</p><p>Thank you for joining {APP_NAME}. Confirm your e-mail address with the link below.</p>" +
      '<p><a class="btn" href="{APP_URL}/auth/confirm-verification/{TOKEN}" target="_blank" rel="noopener">Confirm e-mail</a></p>' +
      "<p>The {APP_NAME} team</p>",
  },
  resetPasswordTemplate: {
    subject: "Reset your {APP_NAME} password",
    body:
      "<p>Hello,</p><p>Click the link below to choose a new password.</p>" +
      '<p><a class="btn" href="{APP_URL}/auth/confirm-password-reset/{TOKEN}" target="_blank" rel="noopener">Reset password</a></p>' +
      "<p><i>If you didn't ask to reset your password, you can ignore this e-mail.</i></p><p>The {APP_NAME} team</p>",
  },
  confirmEmailChangeTemplate: {
    subject: "Confirm your new {APP_NAME} e-mail address",
    body:
      "<p>Hello,</p><p>Click the link below to confirm your new e-mail address.</p>" +
      '<p><a class="btn" href="{APP_URL}/auth/confirm-email-change/{TOKEN}" target="_blank" rel="noopener">Confirm new e-mail</a></p>' +
      "<p><i>If you didn't ask to change your e-mail address, you can ignore this e-mail.</i></p><p>The {APP_NAME} team</p>",
  },
};

migrate(
  (app) => {
    const settings = app.settings();
    settings.meta.appName = "Screenroom";
    settings.meta.appURL = $os.getenv("APP_URL") || "http://127.0.0.1:5173";
    settings.meta.senderName = "Screenroom";
    settings.meta.senderAddress = $os.getenv("MAIL_FROM") || "no-reply@screenroom.example";
    settings.smtp.enabled = true;
    settings.smtp.host = $os.getenv("SMTP_HOST") || "127.0.0.1";
    settings.smtp.port = parseInt($os.getenv("SMTP_PORT") || "1025", 10);
    settings.smtp.tls = false;
    settings.batch.enabled = true;
    settings.batch.maxRequests = 50;
    settings.batch.timeout = 900; // seconds: a 150 MB answer on a slow line
    settings.batch.maxBodySize = 160 * 1024 * 1024;
    app.save(settings);

    const users = app.findCollectionByNameOrId("users");
    for (const key of Object.keys(SPA_LINKS)) {
      users[key].subject = SPA_LINKS[key].subject;
      users[key].body = SPA_LINKS[key].body;
    }
    app.save(users);
  },
  () => {
    // settings are not rolled back
  },
);
