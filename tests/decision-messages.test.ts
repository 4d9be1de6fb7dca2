// Decision messages on the server (server/internal/messages, pb_migrations/1733201200_decision_messages.js): a
// company's templates per kind and language with the product's default text where it wrote none, the template
// editor's preview, a candidate's preview and send (the mail queue, MailDev), what was sent as the review reads it,
// and the candidate.messaged webhook event. The attacker's view: tests/attacks/decision-messages.test.ts.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, keyOf, linksIn, mailsTo, pbUrl, uniqueEmail, waitForMail, world } from "./helpers";
import { admin, countOf, expectFieldError } from "./support";

type World = Awaited<ReturnType<typeof world>>;

interface Template {
  id: string;
  kind: "advance" | "reject";
  language: string;
  subject: string;
  body: string;
  custom: boolean;
  defaultSubject: string;
  defaultBody: string;
}
interface Preview {
  kind: string;
  language: string;
  dir: string;
  to: string;
  subject: string;
  text: string;
  custom?: boolean;
}

const templatesOf = (pb: PocketBase, company: string) =>
  pb.send<{ templates: Template[] }>(`/api/screenroom/companies/${encodeURIComponent(company)}/decision-templates`, {});
const previewTemplate = (pb: PocketBase, company: string, body: Record<string, unknown>) =>
  pb.send<Preview>(`/api/screenroom/companies/${encodeURIComponent(company)}/decision-templates/preview`, { method: "POST", body });
const preview = (pb: PocketBase, candidate: string, kind: unknown) =>
  pb.send<Preview>(`/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision-message/preview`, { method: "POST", body: { kind } });
const send = (pb: PocketBase, candidate: string, kind: unknown) =>
  pb.send<RecordModel>(`/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision-message`, { method: "POST", body: { kind } });
const decide = (pb: PocketBase, candidate: string, decision: string) =>
  pb.send(`/api/screenroom/candidates/${encodeURIComponent(candidate)}/decision`, { method: "POST", body: { decision } });

/** A candidate of the world's job with a name and address of its own. */
async function candidateOf(w: World, label: string, fields: Record<string, unknown> = {}) {
  return w.manager.pb.collection("candidates").create({ job: w.job.id, email: uniqueEmail(label), ...fields });
}

/** The candidate's choice of language on the interview screens (the switcher's route). */
async function chooseLanguage(candidate: string, language: string) {
  const key = (await keyOf(candidate))!;
  await asCandidate(candidate).send(`/api/screenroom/interviews/${encodeURIComponent(key)}/language`, { method: "POST", body: { language } });
}

let w: World;
beforeAll(async () => {
  w = await world("messages");
});

describe("a company's templates", () => {
  it("are the product's default text in each of the nine languages until the company writes its own", async () => {
    const { templates } = await templatesOf(w.manager.pb, w.company.id);
    expect(templates).toHaveLength(18);
    expect(templates.every((t) => !t.custom && t.id === "" && t.subject === t.defaultSubject && t.body === t.defaultBody)).toBe(true);
    const en = templates.find((t) => t.kind === "advance" && t.language === "en")!;
    expect(en.subject).toBe("Next steps for {job} at {company}");
    expect(en.body).toBe(
      "Thank you for your video interview for the {job} position at {company}. We enjoyed your answers and would like to move forward with your application.\n\nWe will be in touch soon about the next step.",
    );
    expect(templates.find((t) => t.kind === "reject" && t.language === "de")!.subject).toBe("Ihre Bewerbung für {job} bei {company}");
    for (const t of templates) {
      expect(t.subject, `${t.kind} ${t.language}`).toContain("{job}");
      if (t.language !== "en") expect(t.body).not.toBe(templates.find((e) => e.kind === t.kind && e.language === "en")!.body);
    }
  });

  it("are saved per kind and language, read back as the company's own, and reset by deleting them", async () => {
    const own = await w.manager.pb.collection("decision_templates").create({
      company: w.company.id, kind: "reject", language: "fr", subject: "  Votre candidature chez {company}  ", body: "Bonjour {name},\n\nMerci.  ",
    });
    expect(own).toMatchObject({ subject: "Votre candidature chez {company}", body: "Bonjour {name},\n\nMerci." });
    const after = (await templatesOf(w.manager.pb, w.company.id)).templates;
    expect(after.find((t) => t.kind === "reject" && t.language === "fr")).toMatchObject({ id: own.id, custom: true, subject: "Votre candidature chez {company}", defaultSubject: "Votre candidature pour {job} chez {company}" });
    expect(after.filter((t) => t.custom)).toHaveLength(1);
    await w.manager.pb.collection("decision_templates").delete(own.id);
    expect((await templatesOf(w.manager.pb, w.company.id)).templates.filter((t) => t.custom)).toEqual([]);
  });

  it("refuse a misspelt placeholder, a stray brace, a subject on two lines, blanks and a second text for the same kind and language, each on its field", async () => {
    const create = (fields: Record<string, unknown>) =>
      w.manager.pb.collection("decision_templates").create({ company: w.company.id, kind: "advance", language: "it", subject: "Oggetto", body: "Testo", ...fields });
    const misspelt = await expectFieldError(() => create({ body: "Gentile {nome}," }), "body");
    // the SPA says it in its own words from the code and the placeholder named
    expect(misspelt).toMatchObject({ code: "validation_unknown_placeholder", message: "{nome} is not a placeholder. Use {name}, {job} or {company}.", params: { placeholder: "{nome}" } });
    expect((await expectFieldError(() => create({ subject: "Offerta {job" }), "subject")).message).toBe("Braces are only for the placeholders {name}, {job} and {company}.");
    expect((await expectFieldError(() => create({ subject: "Due\nrighe" }), "subject")).message).toBe("This field must be on one line.");
    expect((await expectFieldError(() => create({ body: "   \n " }), "body")).message).toBe("Write the message.");
    expect((await expectFieldError(() => create({ body: "x".repeat(5001) }), "body")).message).toBe("Keep the message to 5,000 characters.");
    const first = await create({});
    expect((await expectFieldError(() => create({}), "language")).message).toBe("This company already has its own text for this message in this language.");
    // an update keeps the same checks
    expect((await expectFieldError(() => w.manager.pb.collection("decision_templates").update(first.id, { body: "{company} {x}" }), "body")).message).toBe(
      "{x} is not a placeholder. Use {name}, {job} or {company}.",
    );
    expect((await admin().then((su) => su.collection("decision_templates").getOne(first.id))).body).toBe("Testo");
    await w.manager.pb.collection("decision_templates").delete(first.id);
  });

  it("keep their company, kind and language: a change is refused and nothing is stored", async () => {
    const own = await w.manager.pb.collection("decision_templates").create({ company: w.company.id, kind: "advance", language: "pl", subject: "Temat", body: "Treść" });
    for (const change of [{ kind: "reject" }, { language: "nl" }]) {
      await expect(w.manager.pb.collection("decision_templates").update(own.id, change)).rejects.toMatchObject({ status: 404 });
    }
    expect(await (await admin()).collection("decision_templates").getOne(own.id)).toMatchObject({ kind: "advance", language: "pl" });
    await w.manager.pb.collection("decision_templates").delete(own.id);
  });

  it("are previewed as written, saved or not, for a sample candidate, with the same field errors as saving", async () => {
    const shown = await previewTemplate(w.manager.pb, w.company.id, {
      kind: "advance", language: "ar", subject: "خطوتك التالية في {company}", body: "نود مقابلتك يا {name} بخصوص {job}.\n\nإلى اللقاء.",
    });
    expect(shown).toMatchObject({ kind: "advance", language: "ar", dir: "rtl", subject: "خطوتك التالية في messages company" });
    expect(shown.text).toContain("نود مقابلتك يا Alex بخصوص Product Designer.\n\nإلى اللقاء.");
    // signed by the company, with the data-request line (its link without anyone's key)
    expect(shown.text).toContain("\nmessages company\n");
    expect(shown.text).toContain("http://app.screenroom.test/candidates/…/data");
    expect((await expectFieldError(() => previewTemplate(w.manager.pb, w.company.id, { kind: "advance", language: "en", subject: "Hi {nmae}", body: "x" }), "subject")).message).toBe(
      "{nmae} is not a placeholder. Use {name}, {job} or {company}.",
    );
    await expectFieldError(() => previewTemplate(w.manager.pb, w.company.id, { kind: "hold", language: "en", subject: "s", body: "b" }), "kind");
    await expectFieldError(() => previewTemplate(w.manager.pb, w.company.id, { kind: "reject", language: "xx", subject: "s", body: "b" }), "language");
  });
});

describe("sending a candidate their decision message", () => {
  it("is never automatic: deciding sends nothing, and only a decided candidate can be sent the message of its decision", async () => {
    const c = await candidateOf(w, "undecided");
    const mailsBefore = await countOf("mail_queue", "candidate = {:c}", { c: c.id });
    expect((await expectFieldError(() => preview(w.manager.pb, c.id, "advance"), "kind")).message).toBe("Advance this candidate before sending the advance message.");
    await decide(w.manager.pb, c.id, "hold");
    expect((await expectFieldError(() => send(w.manager.pb, c.id, "reject"), "kind")).message).toBe("Reject this candidate before sending the reject message.");
    await decide(w.manager.pb, c.id, "advance");
    expect((await expectFieldError(() => send(w.manager.pb, c.id, "reject"), "kind")).message).toBe("Reject this candidate before sending the reject message.");
    await expectFieldError(() => send(w.manager.pb, c.id, "hold"), "kind");
    await expectFieldError(() => send(w.manager.pb, c.id, ""), "kind");
    // the decision itself queued no e-mail and recorded no message
    expect(await countOf("mail_queue", "candidate = {:c}", { c: c.id })).toBe(mailsBefore);
    expect(await countOf("decision_messages", "candidate = {:c}", { c: c.id })).toBe(0);
  });

  it("goes through the mail queue in the job's language with the company's own text for it, once, recorded and announced to webhooks", async () => {
    await w.manager.pb.collection("jobs").update(w.job.id, { language: "de" });
    const endpoint = await w.manager.pb.collection("webhook_endpoints").create({ company: w.company.id, url: "https://hooks.invalid/messages", events: ["candidate.messaged"] });
    await w.manager.pb.collection("decision_templates").create({
      company: w.company.id, kind: "advance", language: "de", subject: "Weiter geht's, {name}: {job}", body: "Liebe(r) {name},\nwir freuen uns.\n\nIhr Team von {company}",
    });
    const c = await candidateOf(w, "german", { firstName: "Grete", lastName: "Weiss" });
    await decide(w.manager.pb, c.id, "advance");

    const shown = await preview(w.manager.pb, c.id, "advance");
    expect(shown).toMatchObject({ kind: "advance", language: "de", dir: "ltr", to: c.email, subject: "Weiter geht's, Grete Weiss: Support engineer", custom: true });
    expect(shown.text).toContain("Hallo Grete,\n\nLiebe(r) Grete Weiss,\nwir freuen uns.\n\nIhr Team von messages company\n\n");
    const key = (await keyOf(c.id))!;
    expect(JSON.stringify(shown)).not.toContain(key);
    // previewing sends nothing
    expect(await countOf("decision_messages", "candidate = {:c}", { c: c.id })).toBe(0);

    const sentBefore = Date.now();
    const record = await send(w.manager.pb, c.id, "advance");
    expect(record).toMatchObject({ candidate: c.id, kind: "advance", language: "de", subject: shown.subject, sentBy: w.manager.user.id });
    expect(record.body).toBe("Liebe(r) Grete Weiss,\nwir freuen uns.\n\nIhr Team von messages company");
    expect(new Date(record.sentAt).getTime()).toBeGreaterThanOrEqual(sentBefore - 5000);

    const mail = await waitForMail(c.email, /^Weiter geht's, Grete Weiss: Support engineer$/);
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain("<p>Liebe(r) Grete Weiss,<br>wir freuen uns.</p><p>Ihr Team von messages company</p>");
    // the data-request link with the candidate's own key, the company's signature and the product's footer line
    expect(linksIn(mail)).toContain(`http://app.screenroom.test/candidates/${key}/data`);
    expect(mail.html).toContain("<p>Viele Grüße<br>messages company</p>");
    expect(mail.html).toContain("messages company führt Videointerviews mit Screenroom durch.");

    // what the review reads: the company's managers, through the records API
    const listed = await w.manager.pb.collection("decision_messages").getFullList({ filter: w.manager.pb.filter("candidate = {:c}", { c: c.id }) });
    expect(listed.map((m) => m.id)).toEqual([record.id]);

    // once a kind: a second send, as a repeated bulk action would, is refused and sends nothing more
    expect((await expectFieldError(() => send(w.manager.pb, c.id, "advance"), "kind")).message).toBe("This candidate was already sent the advance message.");
    expect((await expectFieldError(() => preview(w.manager.pb, c.id, "advance"), "kind")).code).toBe("validation_already_sent");
    expect(await countOf("decision_messages", "candidate = {:c}", { c: c.id })).toBe(1);

    // candidate.messaged, recorded for the endpoint with what was sent and no link
    const su = await admin();
    const delivery = await su.collection("webhook_deliveries").getFirstListItem(su.filter("endpoint = {:e} && candidate = {:c}", { e: endpoint.id, c: c.id }));
    expect(delivery.event).toBe("candidate.messaged");
    expect(delivery.payload).toMatchObject({
      type: "candidate.messaged",
      data: {
        candidate: { id: c.id, email: c.email },
        job: { id: w.job.id, title: "Support engineer" },
        company: { id: w.company.id, name: "messages company" },
        message: { id: record.id, kind: "advance", language: "de", subject: shown.subject, body: record.body, sentBy: w.manager.user.id, sentAt: record.sentAt.replace(" ", "T") },
      },
    });
    expect(JSON.stringify(delivery.payload)).not.toContain(key);

    // after a change of mind, the other kind can still be sent once
    await decide(w.manager.pb, c.id, "reject");
    const rejected = await send(w.manager.pb, c.id, "reject");
    expect(rejected).toMatchObject({ kind: "reject", language: "de", subject: "Ihre Bewerbung für Support engineer bei messages company" });
    await w.manager.pb.collection("jobs").update(w.job.id, { language: "" });
  });

  it("follows the candidate's own choice of language, with the default text in it where the company wrote none in that language", async () => {
    await w.manager.pb.collection("decision_templates").create({ company: w.company.id, kind: "reject", language: "en", subject: "English only {name}", body: "English words." });
    const c = await candidateOf(w, "french");
    await chooseLanguage(c.id, "fr");
    await decide(w.manager.pb, c.id, "reject");
    const record = await send(w.manager.pb, c.id, "reject");
    // no {name}: the default's greeting says "Bonjour,"; the company's English text is not used for French
    expect(record).toMatchObject({ language: "fr", subject: "Votre candidature pour Support engineer chez messages company" });
    const mail = await waitForMail(c.email, /^Votre candidature pour/);
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
    expect(mail.html).toContain("<p>Bonjour,</p><p>Merci pour votre entretien vidéo pour le poste Support engineer chez messages company");
    expect(mail.html).toContain("<p>Bien cordialement,<br>messages company</p>");
    expect(mail.html).not.toContain("English");

    // and an English candidate gets the company's English text, {name} being the address where no name is known
    const en = await candidateOf(w, "english");
    await decide(w.manager.pb, en.id, "reject");
    expect(await send(w.manager.pb, en.id, "reject")).toMatchObject({ language: "en", subject: `English only ${en.email}`, body: "English words." });
  });

  it("goes to no candidate whose invitation the team withdrew", async () => {
    const c = await candidateOf(w, "withdrawn");
    await decide(w.manager.pb, c.id, "reject");
    await w.manager.pb.collection("candidates").update(c.id, { withdrawn: true });
    expect((await expectFieldError(() => send(w.manager.pb, c.id, "reject"), "candidate")).message).toBe(
      "This invitation was withdrawn, so the candidate gets no more e-mails about it.",
    );
    expect(await mailsTo(c.email).then((mails) => mails.filter((m) => /Your application/.test(m.subject)))).toEqual([]);
  });

  it("answers a body that is not JSON with 400, and nothing is sent", async () => {
    const c = await candidateOf(w, "badjson");
    await decide(w.manager.pb, c.id, "advance");
    const res = await fetch(`${pbUrl()}/api/screenroom/candidates/${c.id}/decision-message`, {
      method: "POST",
      headers: { Authorization: w.manager.pb.authStore.token, "Content-Type": "application/json" },
      body: "{kind:",
    });
    expect(res.status).toBe(400);
    expect(await countOf("decision_messages", "candidate = {:c}", { c: c.id })).toBe(0);
  });
});
