// Which languages each transcription engine hears: the built-in pocketsphinx has an English model only, a
// Whisper-compatible endpoint is told the job's language and knows them all (whisper-contract.test.ts checks what it
// is sent). Pure decisions; the worker's use of them against a real PocketBase is in worker.test.ts.
import { describe, expect, it } from "vitest";
import { createTranscriber, pocketsphinx, transcribes, unsupportedLanguageReason, whisper, type Transcriber } from "../../worker/src/transcribe";

const NINE = ["en", "de", "fr", "es", "nl", "pt", "it", "pl", "ar"];

describe("the languages a transcription engine transcribes", () => {
  it("pocketsphinx: English only", () => {
    const engine = pocketsphinx("/usr/share/pocketsphinx/model/en-us");
    expect(engine.languages).toEqual(["en"]);
    expect(NINE.filter((language) => transcribes(engine, language))).toEqual(["en"]);
  });

  it("a Whisper-compatible endpoint: every language", () => {
    const engine = whisper("http://127.0.0.1:9/v1/audio/transcriptions", "", "whisper-1");
    expect(engine.languages).toBeUndefined();
    expect(NINE.filter((language) => transcribes(engine, language))).toEqual(NINE);
  });

  it("follows the configured provider", () => {
    expect(createTranscriber({ kind: "pocketsphinx", modelDir: "/m" }).languages).toEqual(["en"]);
    expect(createTranscriber({ kind: "whisper", url: "http://127.0.0.1:9/", apiKey: "", model: "whisper-1" }).languages).toBeUndefined();
  });

  it("a transcriber without a list of its own (a test's stub) takes any language", () => {
    const stub: Transcriber = async () => ({ text: "", segments: null });
    expect(transcribes(stub, "ar")).toBe(true);
  });

  it("says why an answer got no transcript: its language, what the engine knows, and what would transcribe it", () => {
    const reason = unsupportedLanguageReason(pocketsphinx("/m"), "de");
    expect(reason).toContain('"de"');
    expect(reason).toContain('knows only "en"');
    expect(reason).toContain("TRANSCRIBE_URL");
    // the operator's column holds at most 2,000 characters
    expect(reason.length).toBeLessThan(2000);
  });
});
