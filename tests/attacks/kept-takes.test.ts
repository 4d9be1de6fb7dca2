// Issue 22, as an attacker would try it: a take the server keeps for a candidate after a crash, and the takes it
// counted, must reach nobody else and must not be reset. The job's own manager (who may read the candidate) guesses
// at them through filters; another candidate of the same job guesses take ids; a candidate tries to reset its count
// with a whole file, or to read its take through the records API.
import { EventSource } from "eventsource";
import type { ClientResponseError } from "pocketbase";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { asCandidate, fixture, newCandidateOf, postAnswer, putPart, randomId, superuser, webmFile, world } from "../helpers";
import { answersOf, listOutcome } from "../support";

let w: Awaited<ReturnType<typeof world>>;
let candidate: string;
let take: string;
beforeAll(async () => {
  w = await world("attack-kept");
  candidate = await newCandidateOf(w, "kept-victim");
  take = randomId();
  await putPart(asCandidate(candidate), take, 0, new Uint8Array(fixture("answer.webm")).subarray(0, 4000), w.video.question.id, { ms: "1500" });
});

describe("a kept take and the counted takes", () => {
  it("give the job's manager identical answers to a true and a false guess through back-relation filters and sorts", async () => {
    const guesses: [string, string][] = [
      [`id = '${candidate}' && question_progress_via_candidate.takesStarted >= 1`, `id = '${candidate}' && question_progress_via_candidate.takesStarted >= 9`],
      [`id = '${candidate}' && staged_takes_via_candidate.take = '${take}'`, `id = '${candidate}' && staged_takes_via_candidate.take = '${randomId()}'`],
      [`id = '${candidate}' && staged_takes_via_candidate.recordedMs != 1500`, `id = '${candidate}' && staged_takes_via_candidate.recordedMs != 1`],
    ];
    for (const [truth, lie] of guesses) {
      const right = await listOutcome(w.manager.pb, "candidates", { filter: truth });
      const wrong = await listOutcome(w.manager.pb, "candidates", { filter: lie });
      expect({ truth, right }).toEqual({ truth, right: wrong });
    }
    const sorted = await listOutcome(w.manager.pb, "candidates", { sort: "staged_takes_via_candidate.take" });
    expect(sorted.status).toBe(400);
  });

  it("are not in the records API for the candidate either (hidden collections)", async () => {
    const pb = asCandidate(candidate);
    for (const collection of ["staged_takes", "question_progress"]) {
      const list = await listOutcome(pb, collection, {});
      expect({ collection, status: list.status }).toEqual({ collection, status: 403 });
    }
  });

  it("cannot be reset: a whole file beyond the takes the question allows is refused, and the kept take stays", async () => {
    const pb = asCandidate(candidate);
    await putPart(pb, randomId(), 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), w.video.question.id);
    for (let i = 0; i < 3; i++) {
      const err = await postAnswer(pb, { id: randomId(), question: w.video.question.id, file: webmFile() }).catch((e: unknown) => e);
      expect((err as ClientResponseError).status).toBe(403);
    }
    expect(await answersOf(candidate)).toBe(0);
  });

  it("cannot be read by guessing take ids as another candidate of the same job", async () => {
    const other = asCandidate(await newCandidateOf(w, "kept-guesser"));
    const statuses = await Promise.all([take, randomId(), randomId()].map((id) => other.send(`/api/screenroom/takes/${id}`, {}).then(() => 200, (e: ClientResponseError) => e.status)));
    expect(statuses).toEqual([404, 404, 404]);
  });

  it("send no realtime event to the job's manager or the candidate, while a superuser's subscription gets them", async () => {
    (globalThis as { EventSource?: unknown }).EventSource ??= EventSource;
    const su = await superuser();
    const seen: Record<string, string[]> = { superuser: [], manager: [], candidate: [] };
    const clients: [string, PocketBase][] = [
      ["superuser", su],
      ["manager", w.manager.pb],
      ["candidate", asCandidate(candidate)],
    ];
    const stops: (() => Promise<void>)[] = [];
    for (const [who, pb] of clients) {
      for (const collection of ["staged_takes", "question_progress"]) {
        stops.push(await pb.collection(collection).subscribe("*", (event) => seen[who]!.push(`${collection}:${event.action}`)));
      }
    }
    try {
      // a new candidate's first part makes a staged_takes row and a question_progress row
      await putPart(asCandidate(await newCandidateOf(w, "kept-realtime")), randomId(), 0, new Uint8Array(fixture("answer.webm")).subarray(0, 1000), w.video.question.id);
      await expect.poll(() => seen.superuser!.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      // every subscriber is sent an event in the same broadcast: by now the others would have theirs
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect({ manager: seen.manager, candidate: seen.candidate }).toEqual({ manager: [], candidate: [] });
    } finally {
      for (const stop of stops) await stop().catch(() => undefined);
    }
  });
});
