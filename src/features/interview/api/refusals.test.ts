import { afterEach, describe, expect, it, vi } from 'vitest';

import { isTransient, UploadError } from '../upload/upload-queue';

import { english } from '../i18n/testing';

import { answerProblemKey } from './answer-transport';
import { openedOnDeviceClock, secondsLeft } from './open-question';
import { isClosingProblem, refusalCode } from './refusals';

/** The server's coded refusal (server/internal/interview/rules.go): 403 with `{ interview: { code, message } }` in its data. */
const refused = (code: string, message: string) => ({ status: 403, message, data: { interview: { code, message } } });

describe("issue 17's coded refusals", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("are said in the interview's words, never the server's", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(english(answerProblemKey(refused('deadline_passed', 'This interview closed on 24 November 2026.'), 403))).toBe('This interview has closed.');
    expect(english(answerProblemKey(refused('withdrawn', 'This invitation was withdrawn.'), 403))).toBe('This interview is no longer open.');
    // issue 19: the company closed the job
    expect(english(answerProblemKey(refused('job_closed', 'This job was closed.'), 403))).toBe('This job has been closed.');
    expect(english(answerProblemKey(refused('time_over', 'The time to answer this question is over.'), 403))).toBe(
      'The time to answer this question was over when it arrived.',
    );
    expect(english(answerProblemKey(refused('answer_too_long', 'This answer is longer than the time allowed.'), 403))).toBe(
      'Your recording is longer than the time allowed for this question.',
    );
  });

  it('are final: the upload queue never retries them by itself', () => {
    for (const code of ['deadline_passed', 'withdrawn', 'job_closed', 'time_over', 'answer_too_long']) {
      expect(isTransient(new UploadError('refused', 403, refused(code, 'x')))).toBe(false);
    }
  });

  it('are read from a body or from an SDK error, and only the closing ones close the interview', () => {
    expect(refusalCode(refused('withdrawn', 'x'))).toBe('withdrawn');
    expect(refusalCode({ status: 403, response: refused('deadline_passed', 'x') })).toBe('deadline_passed');
    expect(refusalCode({ status: 403, message: 'You have used all your takes for this question.', data: {} })).toBeNull();
    expect(refusalCode(refused('something_else', 'x'))).toBeNull();
    expect(isClosingProblem('upload.problem.deadlinePassed')).toBe(true);
    expect(refusalCode(refused('job_closed', 'x'))).toBe('job_closed');
    expect(isClosingProblem('upload.problem.jobClosed')).toBe(true);
    expect(isClosingProblem('upload.problem.withdrawn')).toBe(true);
    expect(isClosingProblem('upload.problem.timeOver')).toBe(false);
  });
});

describe("the server's clock on this device", () => {
  it('places the first opening on the device clock by the offset of serverNow from the arrival', () => {
    // the server says it opened 20 s before its now; its clock is an hour ahead of this device's
    const arrived = Date.parse('2026-11-24T12:00:00.000Z');
    const opened = openedOnDeviceClock({ openedAt: '2026-11-24 12:59:40.000Z', serverNow: '2026-11-24 13:00:00.000Z' }, arrived);
    expect(opened).toBe(arrived - 20_000);
    expect(secondsLeft(30, opened, arrived)).toBe(10);
    expect(secondsLeft(30, opened, arrived + 15_000)).toBe(0);
  });

  it('never gives more than the limit when the server clock went back, and reads unreadable dates as now', () => {
    const arrived = 1_000_000;
    expect(openedOnDeviceClock({ openedAt: '2026-11-24 13:00:10.000Z', serverNow: '2026-11-24 13:00:00.000Z' }, arrived)).toBe(arrived);
    expect(openedOnDeviceClock({ openedAt: '', serverNow: '' }, arrived)).toBe(arrived);
  });
});
