import type { KeptAnswer } from './answer-store';
import type { UploadQueue } from './upload-queue';

/**
 * Asks the server which of the answers this device kept it no longer holds (a restore from the replica lost its
 * last second or so), and sends those again. Shared code: the question is injected.
 */

/** What the server is asked about each kept answer: nothing but its id and its question. */
export type KeptAnswerRef = { id: string; question: string };

/** The server's side: the ids of the kept answers it holds no answer for. */
export type AskMissing = (candidateId: string, kept: readonly KeptAnswerRef[]) => Promise<readonly string[]>;

/** What the interview read says of the link, as far as sending kept answers again goes. */
export type LinkState = { withdrawnAt?: string };

/**
 * The kept answers of the candidate the server lost, queued again; resolves with how many. Nothing is asked when
 * nothing is kept, or when the candidate withdrew. A closed interview is the server's to judge: past its deadline,
 * an answer to a question opened before it is still taken within the grace window, and the server says nothing is
 * missing once nothing would be.
 */
export async function resendLostAnswers<Staged>(
  queue: UploadQueue<Staged>,
  candidateId: string,
  link: LinkState,
  askMissing: AskMissing,
): Promise<number> {
  if (link.withdrawnAt) return 0;
  const kept = await queue.keptAnswers(candidateId);
  if (!kept.length) return 0;
  const missing = new Set(await askMissing(candidateId, kept.map((answer) => ({ id: answer.id, question: answer.questionId }))));
  const lost: KeptAnswer[] = kept.filter((answer) => missing.has(answer.id));
  await queue.resend(lost);
  return lost.length;
}
