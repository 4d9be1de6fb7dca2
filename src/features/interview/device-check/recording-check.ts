import { canRecord, pickMimeType, TakeRecorder } from '../upload/media-recorder';
import { checkTake, takeProblemMessage } from '../upload/take-check';

/** Long enough for a header with both tracks and a few frames; under the 2 s from which checkTake reads a length. */
export const RECORDING_CHECK_MS = 1200;

export type RecordingCheck = { ok: true; format: string } | { ok: false; message: string };

/** The format a negotiated MIME type names, as a candidate may read it: 'WebM (VP9, Opus)', 'MP4'. */
export function formatLabel(mimeType: string): string {
  const [container, params = ''] = mimeType.split(';');
  const name = container?.trim() === 'video/mp4' ? 'MP4' : 'WebM';
  const codecs = /codecs=([^;]+)/.exec(params)?.[1];
  return codecs ? `${name} (${codecs.split(',').map((c) => c.trim().toUpperCase()).join(', ')})` : name;
}

/**
 * Records a short take on the stream with the interview's own recorder and runs the check a take passes at Stop
 * (issue 23, decisions.md: "17's device check reuses 23's check at Stop"), so a browser that records nothing, or
 * records no sound, is found before the first question. The take stays in memory and is dropped.
 */
export async function checkRecording(stream: MediaStream, ms = RECORDING_CHECK_MS): Promise<RecordingCheck> {
  if (!canRecord()) return { ok: false, message: 'This browser cannot record video. Open this link in a recent Chrome, Edge, Firefox or Safari.' };
  const chosen = pickMimeType((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new TakeRecorder(stream);
  try {
    recorder.start();
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const take = await recorder.stop();
    const problem = await checkTake(take.blob, Date.now() - started);
    if (problem) return { ok: false, message: takeProblemMessage(problem) };
    return { ok: true, format: formatLabel(chosen ?? take.mimeType) };
  } catch {
    recorder.discard();
    return { ok: false, message: takeProblemMessage('empty') };
  }
}
