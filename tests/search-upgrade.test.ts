// Issue 18 point 3: a deployment that already holds answers when the search arrives gets them indexed by the
// migration (1733100000_answer_search.js), each company in its own range. Proven on a server of this suite's own:
// answers stored, the migration rolled back with PocketBase's own `migrate down` (the index gone), the server
// started again (the migration applied to the stored answers), and the answers found, per company.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { binaryPath, migrationsDir } from "../scripts/lib/pocketbase.mjs";
import { answerText, answerVideo, consent, superuser, useOwnServer, world, type OwnServer } from "./helpers";

const dataDir = mkdtempSync(join(tmpdir(), "screenroom-search-upgrade-"));
let server: OwnServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const search = async (w: Awaited<ReturnType<typeof world>>, q: string) =>
  (await w.manager.pb.send<{ items: { answer: string }[] }>(`/api/screenroom/companies/${w.company.id}/search`, { query: { q } })).items.map((hit) => hit.answer);

it("indexes the answers stored before it, each company's apart", async () => {
  server = await useOwnServer({}, { dataDir });
  const a = await world("upgrade-a");
  const b = await world("upgrade-b");
  const textA = await answerText(a.candidate.id, a.text.question.id, "I tuned the zephyrine pipeline for speed.");
  const textB = await answerText(b.candidate.id, b.text.question.id, "Zephyrine was my first project too.");
  const videoA = await answerVideo(a.candidate.id, a.video.question.id);
  await (await superuser()).collection("video_answers").update(videoA.kind.id, { transcript: "We shipped the zephyrine release.", transcriptStatus: "done" });
  expect((await search(a, "zephyrine")).sort()).toEqual([textA.answer.id, videoA.answer.id].sort());
  const port = server.port;
  await server.stop();

  // the deployment before the search existed: the search migration and every later one rolled back (PocketBase
  // reverts the newest first), its tables gone; the prompt is answered as an operator would
  const migrations = readdirSync(migrationsDir).filter((name) => name.endsWith(".js")).sort();
  const count = migrations.length - migrations.indexOf("1733100000_answer_search.js");
  expect(count).toBeGreaterThan(0);
  const down = spawnSync(binaryPath, ["migrate", "down", String(count), `--dir=${dataDir}`, `--migrationsDir=${migrationsDir}`], {
    encoding: "utf8",
    input: "y\n",
  });
  expect(down.status, down.stderr + down.stdout).toBe(0);
  expect(down.stdout + down.stderr).toMatch(/1733100000_answer_search/);

  // on the same port: the clients made above keep working
  server = await useOwnServer({}, { dataDir, port });
  expect((await search(a, "zephyrine")).sort()).toEqual([textA.answer.id, videoA.answer.id].sort());
  expect(await search(b, "zephyrine")).toEqual([textB.answer.id]);
  // and the triggers index what comes after
  const second = await a.manager.pb.collection("candidates").create({ job: a.job.id, email: "upgrade-second@screenroom.test" });
  await consent(second.id);
  const textA2 = await answerText(second.id, a.text.question.id, "More zephyrine work.");
  expect((await search(a, "zephyrine")).sort()).toEqual([textA.answer.id, videoA.answer.id, textA2.answer.id].sort());
  expect(await search(b, "zephyrine")).toEqual([textB.answer.id]);
});
