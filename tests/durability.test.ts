// Confirmed means durable (issue 26): the server answers an answer request 2xx only after the stored file's bytes,
// its folder entry and the rows are on stable storage. Shown on the real server run under strace: in the trace, the
// fsync of the stored file, of its folder, and of SQLite's WAL (synchronous=FULL: the commit) all complete before
// the response's first byte is written to the socket; and each staged part is fsynced with its folder before its own
// 2xx. The device drops its copy once the server confirms, so a power cut after a confirmation must lose nothing.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerVideo, asCandidate, consent, fixture, postAnswer, putPart, randomId, useOwnServer, world } from "./helpers";

let dir: string;
let traceFile: string;
let server: Awaited<ReturnType<typeof useOwnServer>> | undefined;
let w: Awaited<ReturnType<typeof world>>;
let wholeFile: string; // the video record (it holds the file) of the answer stored from a whole file
let staged: string; // the take staged in parts
let stagedVideo: string; // the video record of the answer stored from it
const partSizes: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "screenroom-durability-"));
  traceFile = join(dir, "trace.txt");
  server = await useOwnServer(
    {},
    {
      dataDir: join(dir, "data"),
      // -y: every fd with its path (a file, the WAL, a socket); only the calls this test reads, filtered in the
      // kernel so the server is not slowed down by the rest
      wrap: ["strace", "-f", "-y", "-qq", "--seccomp-bpf", "-e", "trace=fsync,fdatasync,write,writev", "-o", traceFile],
    },
  );
  w = await world("durable");
  wholeFile = (await answerVideo(w.candidate.id, w.video.question.id)).kind.id;

  const other = await w.manager.pb.collection("candidates").create({ job: w.job.id, email: `durable-staged-${randomId()}@example.com` });
  await consent(other.id);
  staged = randomId();
  const bytes = new Uint8Array(fixture("answer.webm"));
  const half = Math.floor(bytes.length / 2);
  const pb = asCandidate(other.id);
  await putPart(pb, staged, 0, bytes.slice(0, half), w.video.question.id, { ms: "1000" });
  await putPart(pb, staged, half, bytes.slice(half), w.video.question.id, { ms: "2000", last: "1" });
  partSizes.push(half, bytes.length - half);
  const stored = await postAnswer(pb, { id: staged, candidate: other.id, question: w.video.question.id, staged: "true", size: String(bytes.length), fileName: "answer.webm" });
  stagedVideo = stored.record.id;
  // strace writes its trace out as it exits
  await server.stop();
  server = undefined;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (!process.env.KEEP_TRACE) rmSync(dir, { recursive: true, force: true });
  else console.log(traceFile);
});

interface Call {
  index: number; // the order in which the call completed
  name: string;
  path: string; // the path or socket strace shows for its fd
  text: string; // the call's line(s)
}

/**
 * The trace's syscalls in the order they completed. With -f, a call interrupted by another thread's shows as
 * "name(args <unfinished ...>" and later "<... name resumed>...": it completed at the resumed line.
 */
function calls(): Call[] {
  const open = new Map<string, string>(); // pid → the start of its unfinished call
  const done: Call[] = [];
  for (const line of readFileSync(traceFile, "utf8").split("\n")) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const pid = m[1]!;
    const rest = m[2]!;
    let text = rest;
    if (rest.endsWith("<unfinished ...>")) {
      open.set(pid, rest);
      continue;
    }
    if (rest.startsWith("<...")) {
      text = `${open.get(pid) ?? ""}${rest}`;
      open.delete(pid);
    }
    const call = /^(\w+)\(\d+<([^>]*)>/.exec(text);
    if (call) done.push({ index: done.length, name: call[1]!, path: call[2]!, text });
  }
  return done;
}

const isSync = (c: Call) => c.name === "fsync" || c.name === "fdatasync";
const isResponse = (c: Call) => (c.name === "write" || c.name === "writev") && c.path.startsWith("socket:") && /"HTTP\/1\.1 200/.test(c.text);

describe("a confirmed answer is on stable storage before its 200 (the server under strace)", () => {
  for (const [label, id] of [
    ["a whole file", () => wholeFile],
    ["a staged take", () => stagedVideo],
  ] as const) {
    it(`${label}: the stored file, its folder and the WAL are fsynced before the response is written`, () => {
      const trace = calls();
      const recordId = id();
      const fileSync = trace.find((c) => isSync(c) && new RegExp(`/storage/[a-z0-9_]+/${recordId}/answer_[^/]*\\.webm$`).test(c.path));
      expect(fileSync, "the stored file is fsynced").toBeDefined();
      const folderSync = trace.find((c) => isSync(c) && c.index > fileSync!.index && c.path.endsWith(`/${recordId}`));
      expect(folderSync, "then its folder").toBeDefined();
      const walSync = trace.find((c) => isSync(c) && c.index > folderSync!.index && c.path.endsWith("/data.db-wal"));
      expect(walSync, "then the commit of its rows (SQLite's WAL)").toBeDefined();
      const response = trace.find((c) => isResponse(c) && c.index > fileSync!.index);
      expect(response, "and only then the 200").toBeDefined();
      expect(response!.index).toBeGreaterThan(walSync!.index);
    });
  }

  it("a staged part is fsynced (in its take's file), and its folder, before its own 200", () => {
    const trace = calls();
    const parts = trace.filter((c) => isSync(c) && c.path.endsWith(`/screenroom_takes/${staged}/take`));
    expect(parts).toHaveLength(partSizes.length);
    for (const part of parts) {
      const folder = trace.find((c) => isSync(c) && c.index > part.index && c.path.endsWith(`/screenroom_takes/${staged}`));
      expect(folder, "the part's name in its take's folder").toBeDefined();
      const response = trace.find((c) => isResponse(c) && c.index > part.index);
      expect(response!.index).toBeGreaterThan(folder!.index);
    }
  });
});
