// Transcription providers: Debian's pocketsphinx (offline, the default) and any Whisper-compatible HTTP endpoint
// (the OpenAI audio transcription request shape: multipart `file` + `model`, Bearer key, JSON {text}).
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { ProviderConfig } from "./config";
import { run } from "./media";

export type Transcriber = (wavPath: string) => Promise<string>;

export function createTranscriber(config: ProviderConfig): Transcriber {
  return config.kind === "pocketsphinx" ? pocketsphinx(config.modelDir) : whisper(config.url, config.apiKey, config.model);
}

export function pocketsphinx(modelDir: string): Transcriber {
  return async (wavPath) => {
    const { stdout } = await run("pocketsphinx_continuous", [
      "-infile", wavPath,
      "-hmm", join(modelDir, "en-us"),
      "-lm", join(modelDir, "en-us.lm.bin"),
      "-dict", join(modelDir, "cmudict-en-us.dict"),
      "-logfn", "/dev/null",
    ]);
    // one line per utterance
    return normalizeSpaces(stdout);
  };
}

export function whisper(url: string, apiKey: string, model: string): Transcriber {
  return async (wavPath) => {
    const form = new FormData();
    form.append("file", new Blob([await readFile(wavPath)], { type: "audio/wav" }), basename(wavPath));
    form.append("model", model);
    form.append("response_format", "json");
    const res = await fetch(url, {
      method: "POST",
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(10 * 60_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`Transcription endpoint answered ${res.status}: ${text.slice(0, 300)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`Transcription endpoint sent no JSON: ${text.slice(0, 300)}`);
    }
    const transcript = (body as { text?: unknown }).text;
    if (typeof transcript !== "string") throw new Error("Transcription endpoint answered without a text field");
    return normalizeSpaces(transcript);
  };
}

function normalizeSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
