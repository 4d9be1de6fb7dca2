import { Flex, Link, Text } from '@radix-ui/themes';
import { useCallback, useEffect, useId, useState, useSyncExternalStore, type RefObject } from 'react';

import type { TranscriptSegment } from './timed-transcript';

import './video-captions.css';

/**
 * Captions on an answer's video, for the manager's review, the comparison and the shared page alike: a `<track>` made
 * from the server's WebVTT file (the media worker's timed segments), shown by default and switched off with a toggle
 * the browser remembers; the transcript's downloads; and, for an answer without captions, why.
 */

/** What an answer offers: captions (a timed transcript), the transcript as text, or why there are no captions. */
export type CaptionsOffer = { captions: boolean; text: boolean; reason: string | null };

/**
 * The server's rule (server/internal/review/captions.go), read from what the review already holds: captions from a
 * finished transcript with timed segments, text from a finished transcript with words; nothing otherwise.
 */
export function captionsOffer(status: string, transcript: string, segments: readonly TranscriptSegment[] | null): CaptionsOffer {
  const words = transcript.trim() !== '' || (segments?.length ?? 0) > 0;
  if (status === 'done') {
    if (segments?.length) return { captions: true, text: true, reason: null };
    return { captions: false, text: words, reason: words ? NO_CAPTIONS.untimed : NO_CAPTIONS.silent };
  }
  return { captions: false, text: false, reason: reasonFor(status) };
}

export const NO_CAPTIONS = {
  pending: 'No captions yet: they appear when the transcript is ready.',
  failed: 'No captions: the transcript could not be made.',
  language: 'No captions: there is no transcript in this language.',
  untimed: 'No captions: this transcript has no timings.',
  silent: 'No captions: no speech was detected.',
} as const;

function reasonFor(status: string): string {
  if (status === 'failed') return NO_CAPTIONS.failed;
  if (status === 'language_unsupported') return NO_CAPTIONS.language;
  return NO_CAPTIONS.pending;
}

/** One choice for every player, in this browser: captions are on until switched off. */
export const CAPTIONS_KEY = 'screenroom.captions';

const listeners = new Set<() => void>();
/** This page's choice, for a browser that refuses storage. */
let chosen: boolean | null = null;

function readCaptionsOn(): boolean {
  try {
    const stored = window.localStorage.getItem(CAPTIONS_KEY);
    if (stored === 'off') return false;
    if (stored === 'on') return true;
  } catch {
    // storage blocked (a privacy setting)
  }
  return chosen ?? true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // another tab changed it
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useCaptionsOn(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, readCaptionsOn);
  const setOn = useCallback((next: boolean) => {
    chosen = next;
    try {
      window.localStorage.setItem(CAPTIONS_KEY, next ? 'on' : 'off');
    } catch {
      // remembered for this page only
    }
    listeners.forEach((listener) => listener());
  }, []);
  return [on, setOn];
}

/** A WebVTT text as a URL a `<track>` can load (same origin, no credentials to send); undefined without one. */
export function useTrackUrl(vtt: string | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (vtt === undefined) {
      setUrl(undefined);
      return;
    }
    const made = URL.createObjectURL(new Blob([vtt], { type: 'text/vtt' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [vtt]);
  return url;
}

/**
 * Shows or hides the video's captions as the choice says, and follows a change made in the player's own captions
 * menu, so both say the same. `trackUrl` is the track's source: a new one is a new track to set.
 */
export function useCaptionsMode(video: RefObject<HTMLVideoElement | null>, trackUrl: string | undefined, on: boolean, setOn: (on: boolean) => void) {
  useEffect(() => {
    const tracks = video.current?.textTracks;
    // a browser (or test DOM) without text tracks plays on without captions
    if (!trackUrl || typeof tracks?.addEventListener !== 'function') return;
    // hidden, not disabled: the cues stay loaded, so switching back on shows them at once
    for (const track of Array.from(tracks)) track.mode = on ? 'showing' : 'hidden';
    const onChange = () => {
      const showing = Array.from(tracks).some((track) => track.mode === 'showing');
      if (showing !== on) setOn(showing);
    };
    tracks.addEventListener('change', onChange);
    return () => tracks.removeEventListener('change', onChange);
  }, [video, trackUrl, on, setOn]);
}

type CaptionsTrackProps = { src: string | undefined; language: string; on: boolean };

/** The `<track>` of an answer's captions, inside its `<video>`; nothing until its file has loaded. */
export function CaptionsTrack({ src, language, on }: CaptionsTrackProps) {
  if (!src) return null;
  return <track key={src} kind="captions" src={src} srcLang={language || 'en'} label="Captions" default={on} />;
}

type CaptionsControlsProps = {
  offer: CaptionsOffer;
  on: boolean;
  onToggle: (on: boolean) => void;
  /** the WebVTT file's and the text's download links, when the answer has them */
  captionsHref: string | undefined;
  textHref: string | undefined;
  /** the captions could not be loaded (the server refused or was out of reach) */
  loadFailed: boolean;
};

/** Beside the player: the captions toggle, the transcript's downloads, and why an answer has no captions. */
export function CaptionsControls({ offer, on, onToggle, captionsHref, textHref, loadFailed }: CaptionsControlsProps) {
  const id = useId();
  return (
    <Flex gap="4" align="center" wrap="wrap" className="video-captions">
      {offer.captions ? (
        <Text as="label" size="1" htmlFor={id}>
          <input id={id} type="checkbox" checked={on} onChange={(event) => onToggle(event.target.checked)} /> Captions
        </Text>
      ) : (
        <Text size="1" color="gray" data-testid="no-captions">
          {offer.reason}
        </Text>
      )}
      {offer.captions && loadFailed && (
        <Text size="1" color="red" role="alert">
          The captions could not be loaded.
        </Text>
      )}
      {textHref && offer.text && (
        <Link size="1" href={textHref} download>
          Download transcript (text)
        </Link>
      )}
      {captionsHref && offer.captions && (
        <Link size="1" href={captionsHref} download>
          Download captions (WebVTT)
        </Link>
      )}
    </Flex>
  );
}
