// server/internal/platform/request_log.go (issue 20 point 3): a successful read is not written to PocketBase's request
// log; a write and a failed read still are, as the superuser's logs show them.
import { describe, expect, it } from "vitest";
import { client, createCompany, randomId, signUp, statusOf } from "./helpers";
import { admin } from "./support";

/** The request log's messages ("METHOD /path?query") that hold `marker`. */
async function loggedWith(marker: string): Promise<string[]> {
  const logs = await (await admin()).logs.getList(1, 50, { filter: `message ~ '${marker}'` });
  return logs.items.map((item) => item.message);
}

describe("the request log", () => {
  it("keeps writes and failures but not successful reads", async () => {
    const marker = randomId();
    const { pb } = await signUp();
    // in this order: the log is written in batches, in the order the requests ended, so once the last two are there
    // the first would be too
    expect(await statusOf(() => client().send("/api/health", { query: { probe: `${marker}-read` } }))).toBe(200);
    const company = await createCompany(pb, `Logged ${marker}`);
    expect(await statusOf(() => pb.collection("companies").update(company.id, { name: `Renamed ${marker}` }, { query: { probe: `${marker}-write` } }))).toBe(200);
    expect(await statusOf(() => pb.collection("jobs").getOne(randomId(), { query: { probe: `${marker}-failed` } }))).toBe(404);
    // PocketBase writes its buffer when it holds 200 rows, or after 3 s without a new one (which a busy server may
    // never see): 200 more failed reads make it write the rows above, however busy the suite keeps it
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 20 }, () => statusOf(() => pb.collection("jobs").getOne(randomId()))));
    }

    await expect
      .poll(async () => (await loggedWith(marker)).map((message) => message.replace(/^(\w+) .*probe=\w+-(\w+).*$/, "$1 $2")).sort(), {
        timeout: 60_000,
        interval: 500,
      })
      .toEqual(["GET failed", "PATCH write"]);
  });
});
