import { useEffect, useState } from 'react';

/** A level (0-100) at or above this counts as hearing the candidate; a silent or muted microphone stays near 0. */
export const HEARD_LEVEL = 6;
/** 'We hear you' holds this long after the last sound, so the text does not flicker between words. */
const HEARD_FOR_MS = 3000;

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | undefined {
  const w = globalThis as unknown as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext;
}

/**
 * The microphone's live level, from a Web Audio AnalyserNode on the stream (nothing is recorded): `level` 0-100
 * (the signal's RMS, scaled), `heard` while a sound was heard in the last few seconds. Without Web Audio, level 0.
 * A new `generation` (the line's Try again, a microphone added to the stream) listens afresh.
 */
export function useMicrophoneLevel(stream: MediaStream | null, generation = 0): { level: number; heard: boolean } {
  const [level, setLevel] = useState(0);
  const [heardAt, setHeardAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    setLevel(0);
    setHeardAt(null);
    const Context = audioContextClass();
    if (!stream || !Context || stream.getAudioTracks?.().length === 0) return;
    let context: AudioContext;
    try {
      context = new Context();
    } catch {
      return;
    }
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    // a timer, not requestAnimationFrame: ten readings a second are enough for a meter, and it runs in a background tab
    const timer = setInterval(() => {
      // a context made before the page was touched may start suspended (autoplay rules)
      if (context.state === 'suspended') void context.resume().catch(() => undefined);
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      const value = Math.min(100, Math.round(rms * 300));
      setLevel(value);
      const at = Date.now();
      setNow(at);
      if (value >= HEARD_LEVEL) setHeardAt(at);
    }, 100);
    return () => {
      clearInterval(timer);
      source.disconnect();
      void context.close().catch(() => undefined);
    };
  }, [stream, generation]);

  return { level, heard: heardAt !== null && now - heardAt < HEARD_FOR_MS };
}
