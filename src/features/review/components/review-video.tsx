import { useEffect, useRef } from 'react';

type ReviewVideoProps = {
  /** The protected file's URL with a current token; it changes when the token is refreshed or the file replaced. */
  src: string;
  label: string;
  /** The file could not be loaded (an expired token answers 404). */
  onLoadError?: () => void;
};

/**
 * A video whose URL may change under the viewer (a refreshed file token every 2 minutes, or the media worker's
 * seekable copy replacing the recording): the new URL is swapped in keeping the position and play state, so
 * the manager never notices.
 */
export function ReviewVideo({ src, label, onLoadError }: ReviewVideoProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const current = useRef<string>('');

  useEffect(() => {
    const video = ref.current;
    if (!video || !src || current.current === src) return;
    const first = current.current === '';
    current.current = src;
    if (first) {
      video.src = src;
      return;
    }
    const position = video.currentTime;
    const playing = !video.paused && !video.ended;
    const restore = () => {
      if (position > 0) video.currentTime = position;
      if (playing) void video.play().catch(() => undefined);
    };
    video.addEventListener('loadedmetadata', restore, { once: true });
    video.src = src;
    return () => video.removeEventListener('loadedmetadata', restore);
  }, [src]);

  return (
    <video
      ref={ref}
      controls
      preload="metadata"
      aria-label={label}
      onError={onLoadError}
      style={{ width: '100%', maxWidth: 640, borderRadius: 'var(--radius-3)', background: 'black' }}
    />
  );
}
