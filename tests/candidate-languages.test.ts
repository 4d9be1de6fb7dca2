// Candidates in their own language, on the server: the interview read's language fields
// (server/internal/interview/interview_read.go), the switcher's route (withdrawal.go: POST .../language), and every
// e-mail a candidate receives in their language, signed by the company, with the deadline in the company's time zone
// and the data-request link (server/internal/mail: letter.go, locales/*.json). The withdrawal itself is tested with
// the erasure's own checks in tests/export-erasure.test.ts; the attacker's view in tests/attacks/candidate-languages.test.ts.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import {
  asCandidate,
  asCandidateKey,
  keyOf,
  linksIn,
  mailsTo,
  pbUrl,
  superuser,
  uniqueEmail,
  waitForMail,
  world,
  type Mail,
} from "./helpers";
import { expectFieldError } from "./support";

const APP_URL = "http://app.screenroom.test";
const interviewPath = (key: string) => `/api/screenroom/interviews/${encodeURIComponent(key)}`;
const setLanguage = (pb: PocketBase, key: string, body: unknown) =>
  pb.send(`${interviewPath(key)}/language`, { method: "POST", body: body as Record<string, unknown> });
const keyFor = async (candidate: string) => (await keyOf(candidate))!;
const read = async (candidate: string) => {
  const key = await keyFor(candidate);
  return asCandidateKey(key).send<Record<string, unknown>>(interviewPath(key), {});
};
const resend = (pb: PocketBase, candidate: string) => pb.send(`/api/screenroom/candidates/${candidate}/resend-invite`, { method: "POST" });

let su: PocketBase;
beforeAll(async () => {
  su = await superuser();
});

describe("the interview read", () => {
  it("gives the job's language (English when none), the candidate's own choice and the company's retention period", async () => {
    const w = await world("lang-read");
    expect(await read(w.candidate.id)).toMatchObject({ language: "en", candidateLanguage: "", retentionMonths: 0 });
    await w.manager.pb.collection("jobs").update(w.job.id, { language: "de" });
    await w.manager.pb.collection("companies").update(w.company.id, { retentionMonths: 6 });
    expect(await read(w.candidate.id)).toMatchObject({ language: "de", candidateLanguage: "", retentionMonths: 6 });
    await setLanguage(asCandidate(w.candidate.id), await keyFor(w.candidate.id), { language: "ar" });
    expect(await read(w.candidate.id)).toMatchObject({ language: "de", candidateLanguage: "ar", retentionMonths: 6 });
  });
});

describe("POST /api/screenroom/interviews/{key}/language", () => {
  it("stores the switcher's choice for the link: 204, and again for another choice", async () => {
    const w = await world("lang-route");
    const key = await keyFor(w.candidate.id);
    for (const language of ["fr", "pl", "en"]) {
      const res = await fetch(`${pbUrl()}${interviewPath(key)}/language`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Candidate-Key": key },
        body: JSON.stringify({ language }),
      });
      expect(res.status).toBe(204);
      expect((await su.collection("candidates").getOne(w.candidate.id)).language).toBe(language);
    }
  });

  it("refuses a language not offered with a clear message on the field, and keeps the choice", async () => {
    const w = await world("lang-invalid");
    const key = await keyFor(w.candidate.id);
    const pb = asCandidate(w.candidate.id);
    await setLanguage(pb, key, { language: "it" });
    for (const body of [{ language: "xx" }, { language: "" }, { language: "DE" }, { language: "de-DE" }, { language: 5 }, { language: null }, {}, { language: ["de"] }]) {
      const error = await expectFieldError(() => setLanguage(pb, key, body), "language");
      expect(error).toEqual({ code: "validation_invalid_language", message: "Choose one of the languages offered." });
    }
    const garbled = await fetch(`${pbUrl()}${interviewPath(key)}/language`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Candidate-Key": key },
      body: "{not json",
    });
    expect(garbled.status).toBe(400);
    expect((await garbled.json()).data.language.code).toBe("validation_invalid_language");
    expect((await su.collection("candidates").getOne(w.candidate.id)).language).toBe("it");
  });

  it("answers 404 with the invalid-link message to an unknown key and to a key not presented in the header", async () => {
    const w = await world("lang-unknown");
    const key = await keyFor(w.candidate.id);
    const other = await keyFor((await world("lang-unknown-other")).candidate.id);
    const unknown = "N0such".padEnd(40, "x");
    const cases: [string, string, Record<string, string>][] = [
      ["an unknown key", unknown, { "X-Candidate-Key": unknown }],
      ["no header", key, {}],
      ["another candidate's key in the header", key, { "X-Candidate-Key": other }],
      ["the job's manager", key, { Authorization: w.manager.pb.authStore.token }],
      ["the record id", w.candidate.id, { "X-Candidate-Key": w.candidate.id }],
    ];
    for (const [who, pathKey, headers] of cases) {
      const res = await fetch(`${pbUrl()}${interviewPath(pathKey)}/language`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ language: "de" }),
      });
      expect({ who, status: res.status, message: (await res.json()).message }).toEqual({ who, status: 404, message: "This interview link is not valid." });
    }
    expect((await su.collection("candidates").getOne(w.candidate.id)).language).toBe("");
  });
});

/** A company in Berlin's time zone with a German job, and a candidate invited with a deadline in January. */
async function germanWorld(label: string, companyFields: Record<string, unknown> = {}) {
  const w = await world(label);
  await w.manager.pb.collection("companies").update(w.company.id, { timeZone: "Europe/Berlin", ...companyFields });
  await w.manager.pb.collection("jobs").update(w.job.id, { language: "de" });
  const year = new Date().getUTCFullYear() + 1;
  const email = uniqueEmail(`${label}-candidate`);
  const candidate = await w.manager.pb
    .collection("candidates")
    .create({ job: w.job.id, email, firstName: "Grete", deadline: `${year}-01-15 10:00:00.000Z` });
  return { ...w, year, email, candidate };
}

const visibleText = (mail: Mail) => mail.html.replace(/<[^>]*>/g, "");

describe("e-mails in the candidate's language", () => {
  it("an invite for a German job arrives in German, with the deadline in the company's zone, the data-request link and the company's signature", async () => {
    const w = await germanWorld("lang-german");
    const key = await keyFor(w.candidate.id);
    const mail = await waitForMail(w.email, /^Ihr Interview für /);
    expect(mail.subject).toBe(`Ihr Interview für ${w.job.title} bei ${w.company.name}`);
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain("<p>Hallo Grete,</p>");
    expect(mail.html).toContain(`<p><strong>${w.company.name}</strong> lädt Sie zu einem Videointerview für die Stelle <strong>${w.job.title}</strong> ein.</p>`);
    // the deadline, 10:00 UTC on 15 January, is 11:00 in Berlin's winter time, with the zone's name
    expect(mail.html).toContain(`Bitte senden Sie Ihre Antworten bis zum <strong>15. Januar ${w.year} um 11:00 Uhr CET (Europe/Berlin)</strong>.`);
    expect(mail.text).toContain(`15. Januar ${w.year} um 11:00 Uhr CET (Europe/Berlin)`);
    const links = linksIn(mail);
    expect(links).toContain(`${APP_URL}/candidates/${key}`);
    expect(links).toContain(`${APP_URL}/candidates/${key}/data`);
    expect(mail.html).toContain(`<p>Viel Erfolg!<br>${w.company.name}</p>`);
    expect(mail.html).not.toContain("Screenroom team");
    // the product named once, in the footer line
    expect(visibleText(mail).match(/Screenroom/g)).toHaveLength(1);
    expect(mail.html).toContain(`${w.company.name} führt Videointerviews mit Screenroom durch.`);
    // no English sentence of the English invite
    for (const english of ["invites you", "Answer the questions", "Please send your answers", "Good luck"]) expect(visibleText(mail)).not.toContain(english);
  });

  it("follows the switcher's choice in the next e-mail: French, then Arabic right to left", async () => {
    const w = await germanWorld("lang-switch");
    await waitForMail(w.email, /^Ihr Interview für /);
    const key = await keyFor(w.candidate.id);

    await setLanguage(asCandidateKey(key), key, { language: "fr" });
    await resend(w.manager.pb, w.candidate.id);
    const french = await waitForMail(w.email, /^Votre entretien pour /);
    expect(french.html).toContain('<html lang="fr" dir="ltr">');
    expect(french.html).toContain("<p>Un rappel de votre invitation\u00a0:</p>");
    expect(french.html).toContain(`avant le <strong>15 janvier ${w.year} à 11:00 CET (Europe/Berlin)</strong>`);
    expect(french.html).toContain(`${APP_URL}/candidates/${key}/data`);
    expect(french.html).toContain(`<br>${w.company.name}</p>`);

    await setLanguage(asCandidateKey(key), key, { language: "ar" });
    await resend(w.manager.pb, w.candidate.id);
    const arabic = await waitForMail(w.email, /^مقابلتك لوظيفة /);
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.html).toContain('<body dir="rtl">');
    expect(arabic.html).toContain(`15 يناير ${w.year} الساعة 11:00 <bdi dir="ltr">CET (Europe/Berlin)</bdi>`);
    expect(arabic.html).toContain(`${APP_URL}/candidates/${key}/data`);
    expect((await mailsTo(w.email)).map((m) => m.subject.split(" ")[0])).toHaveLength(3);
  });

  it("leaves the product's footer out when the company turns it off, and states UTC for a company without a zone", async () => {
    const w = await germanWorld("lang-footer", { mailFooterOff: true });
    const mail = await waitForMail(w.email, /^Ihr Interview für /);
    expect(mail.html).not.toContain("Screenroom");
    expect(mail.text).not.toContain("Screenroom");
    expect(mail.html).toContain(`<p>Viel Erfolg!<br>${w.company.name}</p>`);

    await w.manager.pb.collection("companies").update(w.company.id, { timeZone: "", mailFooterOff: false });
    await resend(w.manager.pb, w.candidate.id);
    await expect.poll(async () => (await mailsTo(w.email)).length, { timeout: 30_000 }).toBe(2);
    const again = (await mailsTo(w.email)).find((m) => m.html.includes("Eine Erinnerung an Ihre Einladung"))!;
    expect(again.html).toContain(`<strong>15. Januar ${w.year} um 10:00 Uhr UTC</strong>`);
    expect(visibleText(again).match(/Screenroom/g)).toHaveLength(1);
  });
});
