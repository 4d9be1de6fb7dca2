// Fixed loopback ports of the end-to-end stack, shared by scripts/e2e-stack.mjs, the Playwright
// config and the e2e helpers. Override with E2E_PB_PORT / E2E_MAIL_WEB_PORT / E2E_MAIL_SMTP_PORT.
const pocketbase = Number(process.env.E2E_PB_PORT || 8190);
const mailWeb = Number(process.env.E2E_MAIL_WEB_PORT || 1190);
const mailSmtp = Number(process.env.E2E_MAIL_SMTP_PORT || 1125);

export const E2E = {
  pocketbase,
  mailWeb,
  mailSmtp,
  appUrl: `http://127.0.0.1:${pocketbase}`,
  mailUrl: `http://127.0.0.1:${mailWeb}`,
  superuser: { email: "e2e-superuser@screenroom.test", password: "e2e-superuser-password" },
};
