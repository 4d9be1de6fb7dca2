// Contract test of the Whisper-compatible provider against a local server speaking the OpenAI audio
// transcription request shape: POST multipart {file, model, response_format, language}, Authorization: Bearer KEY, answer {text}
// and, for response_format=verbose_json, {segments: [{start, end, text, ...}]} (the transcript's times, issue 15).
import { createServer, type IncomingMessage, type Server } from "node:http";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transcribes, whisper } from "../../worker/src/transcribe";

interface Seen {
  method: string;
  url: string;
  authorization: string;
  contentType: string;
  fields: Record<string, string>;
  file?: { name: string; type: string; size: number; head: string };
}

let server: Server;
let base = "";
const seen: Seen[] = [];

async function readMultipart(req: IncomingMessage): Promise<Pick<Seen, "fields" | "file">> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  // Let the platform's own multipart parser read it, as a real server framework would.
  const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
  const fields: Record<string, string> = {};
  let file: Seen["file"];
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, key) => entries.push([key, value]));
  for (const [key, value] of entries) {
    if (typeof value === "string") fields[key] = value;
    else if (key === "file") {
      const bytes = Buffer.from(await value.arrayBuffer());
      file = { name: value.name, type: value.type, size: bytes.length, head: bytes.subarray(0, 4).toString("latin1") };
    }
  }
  return { fields, file };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const body = await readMultipart(req);
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization ?? "",
        contentType: req.headers["content-type"] ?? "",
        ...body,
      });
      if (req.headers.authorization !== "Bearer sk-test") {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
        return;
      }
      const text = "  He was not an\nill disposed young man. ";
      const format = body.fields.response_format;
      // an endpoint whose model has no verbose_json (OpenAI's gpt-4o-transcribe answers so)
      if (req.url?.startsWith("/json-only/") && format === "verbose_json") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `response_format 'verbose_json' is not compatible with model '${body.fields.model}'. Use 'json' or 'text' instead.`, param: "response_format" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      // an endpoint that answers plain json whatever it is asked
      if (req.url?.startsWith("/plain/") || format !== "verbose_json") {
        res.end(JSON.stringify({ text }));
        return;
      }
      res.end(
        JSON.stringify({
          task: "transcribe",
          language: "english",
          duration: 3.8,
          text,
          segments: [
            { id: 0, seek: 0, start: 0.0, end: 1.52, text: " He was not an", tokens: [50364, 634], temperature: 0, avg_logprob: -0.21, compression_ratio: 0.9, no_speech_prob: 0.01 },
            { id: 1, seek: 0, start: 1.52, end: 3.8, text: " ill disposed young man. ", tokens: [3171], temperature: 0, avg_logprob: -0.18, compression_ratio: 0.9, no_speech_prob: 0.01 },
          ],
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function wav(): string {
  const path = join(mkdtempSync(join(tmpdir(), "screenroom-wav-")), "audio.wav");
  writeFileSync(path, Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(40)]));
  return path;
}

describe("Whisper-compatible provider", () => {
  it("posts the audio, model and language as multipart with the bearer key, asks for verbose_json, and returns the text and its segments", async () => {
    const transcribe = whisper(`${base}/v1/audio/transcriptions`, "sk-test", "whisper-large-v3");
    await expect(transcribe(wav(), "en")).resolves.toEqual({
      text: "He was not an ill disposed young man.",
      segments: [
        { start: 0, end: 1.52, text: "He was not an" },
        { start: 1.52, end: 3.8, text: "ill disposed young man." },
      ],
    });
    const request = seen.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/v1/audio/transcriptions");
    expect(request.authorization).toBe("Bearer sk-test");
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.fields.model).toBe("whisper-large-v3");
    expect(request.fields.response_format).toBe("verbose_json");
    expect(request.fields.language).toBe("en");
    expect(Object.keys(request.fields).sort()).toEqual(["language", "model", "response_format"]);
    expect(request.file).toEqual({ name: "audio.wav", type: "audio/wav", size: 44, head: "RIFF" });
  });

  it("sends the job's language as the endpoint's language field, for each of the nine, and can transcribe them all", async () => {
    const transcribe = whisper(`${base}/v1/audio/transcriptions`, "sk-test", "whisper-1");
    expect(transcribes(transcribe, "de")).toBe(true);
    const before = seen.length;
    for (const language of ["de", "fr", "es", "nl", "pt", "it", "pl", "ar", "en"]) await transcribe(wav(), language);
    expect(seen.slice(before).map((r) => r.fields.language)).toEqual(["de", "fr", "es", "nl", "pt", "it", "pl", "ar", "en"]);
  });

  it("keeps the text and gives no segments when the endpoint answers plain json", async () => {
    const transcribe = whisper(`${base}/plain/v1/audio/transcriptions`, "sk-test", "whisper-1");
    await expect(transcribe(wav(), "en")).resolves.toEqual({ text: "He was not an ill disposed young man.", segments: null });
    expect(seen.at(-1)!.fields.response_format).toBe("verbose_json");
  });

  it("asks again for plain json when the model has no verbose_json, and from then on asks for plain json only", async () => {
    const transcribe = whisper(`${base}/json-only/v1/audio/transcriptions`, "sk-test", "gpt-4o-transcribe");
    const before = seen.length;
    await expect(transcribe(wav(), "de")).resolves.toEqual({ text: "He was not an ill disposed young man.", segments: null });
    await expect(transcribe(wav(), "de")).resolves.toEqual({ text: "He was not an ill disposed young man.", segments: null });
    expect(seen.slice(before).map((r) => r.fields.response_format)).toEqual(["verbose_json", "json", "json"]);
    // the language goes with the plain json request too
    expect(seen.slice(before).map((r) => r.fields.language)).toEqual(["de", "de", "de"]);
  });

  it("fails with the endpoint's status when it refuses the request", async () => {
    const transcribe = whisper(`${base}/v1/audio/transcriptions`, "wrong-key", "whisper-1");
    await expect(transcribe(wav(), "en")).rejects.toThrow(/answered 401.*Incorrect API key/);
  });
});
