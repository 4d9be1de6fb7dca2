import { useEffect, useLayoutEffect, useRef, type ComponentProps } from 'react';

type ReviewVideoProps = Pick<ComponentProps<'video'>, 'onPlay' | 'onTimeUpdate' | 'onSeeked' | 'children'> & {
  /** The protected file's URL with a current token; it changes when the token is refreshed or the file replaced. */
  src: string;
  label: string;
  /** The file could not be loaded (an expired token answers 404). */
  onLoadError?: () => void;
  /** 1, 1.25, 1.5 or 2: kept across a change of `src`. */
  playbackRate?: number;
  /** The <video> element, for whoever plays, pauses and seeks it. */
  videoRef?: (video: HTMLVideoElement | null) => void;
};

/**
 * A video whose URL may change under the viewer (a refreshed file token every 2 minutes, or the media worker's
 * seekable copy replacing the recording): the new URL is swapped in keeping the position and play state, so
 * the manager never notices.
 */
export function ReviewVideo({ src, label, onLoadError, playbackRate = 1, videoRef, children, ...events }: ReviewVideoProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const current = useRef<string>('');

  // known to the page's player as the element mounts, before a frame is painted and anything can be played
  useLayoutEffect(() => {
    videoRef?.(ref.current);
    return () => videoRef?.(null);
  }, [videoRef]);

  // as the choice renders, not a frame later
  useLayoutEffect(() => {
    const video = ref.current;
    if (!video) return;
    // a new source starts at the default rate: both follow the manager's choice
    video.defaultPlaybackRate = playbackRate;
    video.playbackRate = playbackRate;
  }, [playbackRate]);

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
      {...events}
      style={{ width: '100%', maxWidth: 640, borderRadius: 'var(--radius-3)', background: 'black' }}
    >
      {children}
    </video>
  );
}
