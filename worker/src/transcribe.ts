// Transcription providers: Debian's pocketsphinx (offline, the default) and any Whisper-compatible HTTP endpoint
// (the OpenAI audio transcription request shape: multipart `file` + `model` + `response_format` + `language`, Bearer
// key, JSON {text, segments}). Each gives the plain transcript and, where it can, its timed segments (segments.ts).
// The language is the answer's job's (ISO 639-1, as the OpenAI API takes it); pocketsphinx has an English model
// only, and says so by its `languages`.
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { ProviderConfig } from "./config";
import { run } from "./media";
import { groupWords, segmentsFromWhisper, type TimedWord, type Transcription } from "./segments";

/**
 * Transcribes a wav file spoken in `language`. `languages`: the only ones it can transcribe; absent, any (a
 * Whisper-compatible endpoint is told the language and knows them all).
 */
export type Transcriber = ((wavPath: string, language: string) => Promise<Transcription>) & { readonly languages?: readonly string[] };

/** The language of an answer whose job has none (and of a server that does not say). */
export const DEFAULT_LANGUAGE = "en";

export function createTranscriber(config: ProviderConfig): Transcriber {
  return config.kind === "pocketsphinx" ? pocketsphinx(config.modelDir) : whisper(config.url, config.apiKey, config.model);
}

/** Whether `transcriber` can transcribe speech in `language`. */
export function transcribes(transcriber: Transcriber, language: string): boolean {
  return !transcriber.languages || transcriber.languages.includes(language);
}

/**
 * Why an answer got no transcript (video_answers.transcriptError, for the operator; the manager sees the state's own
 * words): the engine cannot hear its language, and what can.
 */
export function unsupportedLanguageReason(transcriber: Transcriber, language: string): string {
  return (
    `This answer's job is in "${language}" and the transcription engine knows only "${(transcriber.languages ?? []).join('", "')}" ` +
    `(the built-in pocketsphinx: English): no transcript was made. A Whisper-compatible endpoint (TRANSCRIBE_URL) transcribes it.`
  );
}

/** pocketsphinx with Debian's en-us model: English only, whatever the job's language. */
export function pocketsphinx(modelDir: string): Transcriber {
  return Object.assign(async (wavPath: string) => {
    const { stdout } = await run("pocketsphinx_continuous", [
      "-infile", wavPath,
      "-hmm", join(modelDir, "en-us"),
      "-lm", join(modelDir, "en-us.lm.bin"),
      "-dict", join(modelDir, "cmudict-en-us.dict"),
      "-time", "yes",
      "-logfn", "/dev/null",
    ]);
    const { text, words } = parsePocketsphinx(stdout);
    return { text, segments: groupWords(words) };
  }, { languages: ["en"] as const });
}

/** pocketsphinx's frame: its default -frate is 100 frames a second. */
const FRAME_SECONDS = 0.01;
/** A line of `-time yes`: the word (or filler), its first and last frame's time, and its confidence. */
const WORD_TIME = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+\.\d+)$/;

/**
 * pocketsphinx_continuous's output with `-time yes`: per utterance, its hypothesis on one line (the transcript, as
 * without times), then one line per word or filler with its times in seconds from the start of the audio. The
 * transcript is the hypotheses joined; the words are the spoken ones (fillers and silences left out, the dictionary's
 * alternate pronunciations "word(2)" named by their word), each ending where its last frame does.
 */
export function parsePocketsphinx(stdout: string): { text: string; words: TimedWord[] } {
  const hypotheses: string[] = [];
  const words: TimedWord[] = [];
  for (const line of stdout.split("\n")) {
    const timed = WORD_TIME.exec(line.trim());
    if (!timed) {
      hypotheses.push(line);
      continue;
    }
    const word = spokenWord(timed[1]!);
    if (word) words.push({ word, start: Number(timed[2]), end: Number(timed[3]) + FRAME_SECONDS });
  }
  return { text: normalizeSpaces(hypotheses.join("\n")), words };
}

/** The word a recognised token stands for, or null for a filler: <s>, </s>, <sil>, [NOISE], ++BREATH++. */
export function spokenWord(token: string): string | null {
  if (/^<.*>$|^\[.*\]$|^\+\+.*\+\+$/.test(token)) return null;
  const word = token.replace(/\(\d+\)$/, "");
  return word || null;
}

/** The answer of an endpoint that cannot give verbose_json for its model (OpenAI's gpt-4o-transcribe: 400). */
function refusesVerboseJson(status: number, body: string): boolean {
  return (status === 400 || status === 422) && /response_format|verbose_json/i.test(body);
}

export function whisper(url: string, apiKey: string, model: string): Transcriber {
  // once the endpoint refused verbose_json, this worker asks it for plain json only
  let plainOnly = false;
  const request = async (wavPath: string, language: string, format: "verbose_json" | "json") => {
    const form = new FormData();
    form.append("file", new Blob([await readFile(wavPath)], { type: "audio/wav" }), basename(wavPath));
    form.append("model", model);
    form.append("response_format", format);
    // the job's language, rather than the endpoint guessing it from the first seconds (a name or an accent)
    form.append("language", language);
    const res = await fetch(url, {
      method: "POST",
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(10 * 60_000),
    });
    return { status: res.status, ok: res.ok, text: await res.text() };
  };
  return async (wavPath, language) => {
    let res = await request(wavPath, language, plainOnly ? "json" : "verbose_json");
    if (!plainOnly && refusesVerboseJson(res.status, res.text)) {
      plainOnly = true;
      res = await request(wavPath, language, "json");
    }
    if (!res.ok) throw new Error(`Transcription endpoint answered ${res.status}: ${res.text.slice(0, 300)}`);
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new Error(`Transcription endpoint sent no JSON: ${res.text.slice(0, 300)}`);
    }
    const { text, segments } = (body ?? {}) as { text?: unknown; segments?: unknown };
    if (typeof text !== "string") throw new Error("Transcription endpoint answered without a text field");
    return { text: normalizeSpaces(text), segments: segmentsFromWhisper(segments) };
  };
}

function normalizeSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
