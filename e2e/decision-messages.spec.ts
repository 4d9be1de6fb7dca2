// Decision messages in real Chromium against the real stack: a manager writes the company's reject message in
// Spanish in the company settings and previews it, rejects a candidate of a German job who switched their interview
// to Spanish, previews the e-mail on the review and sends it; MailDev receives it in Spanish with the company's words,
// the data-request link and the company's signature; the review shows what was sent and when.
import { expect, test } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText } from "./review-support";
import { createCompany, createQuestion, createUser, keyOf, linksIn, signInBrowser, superuser, uniqueEmail, waitForMail } from "./support";

test("a manager edits the reject message, previews it, sends it from the review, and the candidate receives it in their language", async ({ page }) => {
  const run = Date.now().toString(36);
  const manager = await createUser({ firstName: "Marta", lastName: "Manager" });
  const company = await createCompany(manager.pb, `Mensajes ${run}`);
  const question = await createQuestion(manager.pb, company.id, "text", { title: "¿Por qué nosotros?" });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Ingeniera de soporte",
    description: "Ayudar a nuestros clientes",
    location: "Madrid",
    questions: [question.id],
    language: "de",
  });
  const email = uniqueEmail("candidata");
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email, firstName: "Lucía", lastName: "García" });
  const key = await keyOf(candidate.id);
  // the candidate switched their interview from the job's German to Spanish, then answered
  const switched = await fetch(`${E2E.appUrl}/api/screenroom/interviews/${encodeURIComponent(key)}/language`, {
    method: "POST",
    headers: { "X-Candidate-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ language: "es" }),
  });
  expect(switched.status).toBe(204);
  await answerWithText(key, question.id, "Me encanta ayudar.");

  await signInBrowser(page, manager.pb);

  // the company settings: Reject, Spanish
  await page.goto(`/companies/${company.id}/edit`);
  await page.getByRole("navigation", { name: "Company settings" }).getByRole("link", { name: "Decision messages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Decision messages" })).toBeVisible();
  await page.getByRole("radio", { name: "Reject" }).click();
  await page.getByRole("combobox", { name: "Language" }).selectOption("es");
  const form = page.getByRole("form", { name: "Reject message in Español" });
  await expect(form.getByTestId("template-source")).toHaveText("Screenroom’s default text: save it to make it your own.");
  await expect(form.getByLabel("Subject")).toHaveValue("Su candidatura para {job} en {company}");
  await form.getByLabel("Subject").fill("{name}, gracias por su tiempo en {company}");
  await form.getByLabel("Message").fill("Hemos decidido seguir con otras candidaturas para {job}.\n\nLe deseamos mucha suerte.");
  await form.getByRole("button", { name: "Preview" }).click();
  const sample = form.getByTestId("message-preview");
  await expect(sample.getByTestId("preview-subject")).toHaveText(`Alex, gracias por su tiempo en Mensajes ${run}`);
  await expect(sample.getByTestId("preview-text")).toContainText("Hemos decidido seguir con otras candidaturas para Product Designer.");
  await expect(sample.getByTestId("preview-text")).toContainText("Un cordial saludo,");
  await expectAccessible(page, "the decision messages settings with a preview");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Reject message in Español saved")).toBeVisible();
  await expect(form.getByTestId("template-source")).toHaveText("Your company’s own text.");

  // the review: reject, then preview and send
  await page.goto(`/companies/${company.id}/jobs/${job.id}/candidates/${candidate.id}`);
  const panel = page.getByRole("region", { name: "Decision message" });
  await expect(panel.getByText("Advance or reject the candidate to send them a message.")).toBeVisible();
  await page.getByRole("radiogroup", { name: "Decision" }).getByRole("radio", { name: "Reject" }).click();
  await expect(page.getByTestId("decision-byline")).toContainText("Reject, set by Marta Manager");
  // deciding sent nothing
  const su = await superuser();
  expect(await su.collection("decision_messages").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate.id }) })).toEqual([]);

  await panel.getByRole("button", { name: "Send reject message" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Send the reject message?" });
  const preview = dialog.getByTestId("message-preview");
  await expect(preview).toContainText(`To: ${email}`);
  await expect(preview).toContainText("Language: Español (your company’s text)");
  await expect(preview.getByTestId("preview-subject")).toHaveText(`Lucía García, gracias por su tiempo en Mensajes ${run}`);
  const text = preview.getByTestId("preview-text");
  await expect(text).toHaveAttribute("lang", "es");
  await expect(text).toContainText("Hola, Lucía:");
  await expect(text).toContainText("Hemos decidido seguir con otras candidaturas para Ingeniera de soporte.");
  // the preview shows the data-request link without the candidate's key
  await expect(text).toContainText("/candidates/…/data");
  await expect(text).not.toContainText(key);
  await expectAccessible(page, "the send dialog", '[role="alertdialog"]');
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(`Message sent to ${email}`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // the review shows what was sent and when, and offers no second send
  const line = panel.getByTestId("sent-message-line");
  await expect(line).toHaveText(/^Reject message sent .+ by you$/);
  await expect(panel.getByRole("button", { name: "Send reject message" })).toHaveCount(0);
  await panel.getByText(`Lucía García, gracias por su tiempo en Mensajes ${run}`).click();
  await expect(panel.getByText(/Hemos decidido seguir con otras candidaturas para Ingeniera de soporte\./)).toBeVisible();

  // MailDev: in Spanish, the company's words, the data-request link with the key, signed by the company
  const mail = await waitForMail(email, /gracias por su tiempo/);
  expect(mail.subject).toBe(`Lucía García, gracias por su tiempo en Mensajes ${run}`);
  expect(mail.html).toContain('<html lang="es" dir="ltr">');
  expect(mail.html).toContain("<p>Hola, Lucía:</p><p>Hemos decidido seguir con otras candidaturas para Ingeniera de soporte.</p><p>Le deseamos mucha suerte.</p>");
  expect(mail.html).toContain(`<p>Un cordial saludo,<br>Mensajes ${run}</p>`);
  const dataLink = linksIn(mail).find((link) => link.endsWith("/data"));
  expect(dataLink).toBe(`${E2E.appUrl}/candidates/${key}/data`);

  // the link opens the candidate's data page, in Spanish
  await page.goto(new URL(dataLink!).pathname);
  await expect(page.getByTestId("candidate-frame")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { name: "Sus respuestas y sus datos" })).toBeVisible();
});
