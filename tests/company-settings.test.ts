// A company's e-mail settings (companies.timeZone and mailFooterOff, server/internal/companies/settings.go) and a
// job's candidate language (jobs.language), as the records API takes them: a zone the e-mails could not state times
// in is refused on its field, whoever saves it; every zone a browser's settings screen offers is taken.
import { describe, expect, it } from "vitest";
import { createCompany, pngFile, signUp, superuser, uniqueEmail, world } from "./helpers";
import { acceptInvite, expectBatchFieldError, expectFieldError } from "./support";

const ZONE_MESSAGE = "Choose a time zone from the list.";

describe("companies.timeZone", () => {
  it("takes a zone and stores it, and empty (UTC) again", async () => {
    const { manager, company } = await world("zone-valid");
    expect(company.timeZone).toBe("");
    expect(company.mailFooterOff).toBe(false);
    const saved = await manager.pb.collection("companies").update(company.id, { timeZone: "Europe/Berlin", mailFooterOff: true });
    expect(saved).toMatchObject({ timeZone: "Europe/Berlin", mailFooterOff: true });
    expect(await manager.pb.collection("companies").update(company.id, { timeZone: "" })).toMatchObject({ timeZone: "", mailFooterOff: true });
    expect(await manager.pb.collection("companies").update(company.id, { timeZone: "UTC", mailFooterOff: false })).toMatchObject({ timeZone: "UTC", mailFooterOff: false });
  });

  it("takes every zone the settings screen offers (the IANA names of Intl.supportedValuesOf)", async () => {
    const { manager, company } = await world("zone-all");
    const refused: string[] = [];
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      try {
        await manager.pb.collection("companies").update(company.id, { timeZone: zone }, { fields: "timeZone" });
      } catch {
        refused.push(zone);
      }
    }
    expect(refused).toEqual([]);
  });

  it.each([
    ["an unknown name", "Mars/Olympus_Mons"],
    ["the server's own zone", "Local"],
    ["a name with a stray space", "Europe/Berlin "],
    ["a path", "../../../etc/passwd"],
    ["a name in the wrong case", "europe/berlin"],
    ["an offset", "+02:00"],
  ])("refuses %s with a message on the field, and keeps what was stored", async (_, zone) => {
    const { manager, company } = await world("zone-invalid");
    await manager.pb.collection("companies").update(company.id, { timeZone: "Europe/Lisbon" });
    const error = await expectFieldError(() => manager.pb.collection("companies").update(company.id, { timeZone: zone, name: "Renamed" }), "timeZone");
    expect(error).toEqual({ code: "validation_time_zone", message: ZONE_MESSAGE });
    const stored = await manager.pb.collection("companies").getOne(company.id);
    expect(stored).toMatchObject({ timeZone: "Europe/Lisbon", name: "zone-invalid company" });
  });

  it("refuses an unknown zone on a new company too, and from a superuser", async () => {
    const manager = await signUp({ email: uniqueEmail("zone-create") });
    const error = await expectFieldError(
      () =>
        manager.pb.collection("companies").create({
          name: "Zoned",
          website: "https://zoned.example.com",
          timeZone: "Nowhere/Else",
          logo: pngFile(),
        }),
      "timeZone",
    );
    expect(error.message).toBe(ZONE_MESSAGE);
    const company = await createCompany(manager.pb, "Zoned");
    const su = await superuser();
    expect((await expectFieldError(() => su.collection("companies").update(company.id, { timeZone: "Local" }), "timeZone")).message).toBe(ZONE_MESSAGE);
  });

  it("refuses an unknown zone in a batch too, on that field, saving nothing of the batch", async () => {
    const { manager, company, job } = await world("zone-batch");
    const batch = manager.pb.createBatch();
    batch.collection("jobs").update(job.id, { title: "Renamed in the batch" });
    batch.collection("companies").update(company.id, { timeZone: "Atlantis/Capital" });
    const failure = await expectBatchFieldError(() => batch.send(), 1, "timeZone");
    expect(failure).toEqual({ code: "validation_time_zone", message: ZONE_MESSAGE });
    expect((await manager.pb.collection("jobs").getOne(job.id)).title).toBe("Support engineer");
    expect((await manager.pb.collection("companies").getOne(company.id)).timeZone).toBe("");
  });

  it("lets a co-manager (not the owner) set the e-mail settings", async () => {
    const { manager, company } = await world("zone-co");
    const fellow = await signUp({ email: uniqueEmail("zone-fellow") });
    const invite = await manager.pb.collection("manager_invites").create({ company: company.id, email: fellow.user.email });
    expect((await acceptInvite(invite.id, fellow.pb.authStore.token)).status).toBe(200);
    expect(await fellow.pb.collection("companies").update(company.id, { timeZone: "America/Sao_Paulo", mailFooterOff: true })).toMatchObject({
      timeZone: "America/Sao_Paulo",
      mailFooterOff: true,
    });
  });
});

describe("jobs.language", () => {
  it("stores each of the nine languages, and refuses another on its field", async () => {
    const { manager, job } = await world("job-language");
    // a job made without one has none: the server reads it as English (the worker's claim says "en")
    expect(job.language).toBe("");
    for (const language of ["de", "fr", "es", "nl", "pt", "it", "pl", "ar", "en"]) {
      expect((await manager.pb.collection("jobs").update(job.id, { language })).language).toBe(language);
    }
    await expectFieldError(() => manager.pb.collection("jobs").update(job.id, { language: "xx" }), "language");
    await expectFieldError(() => manager.pb.collection("jobs").update(job.id, { language: "DE" }), "language");
    expect((await manager.pb.collection("jobs").getOne(job.id)).language).toBe("en");
  });
});
