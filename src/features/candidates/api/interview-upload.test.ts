import { describe, expect, it } from 'vitest';

import type { PendingAnswer } from '@/lib/answer-store';

import { batchErrorMessage, buildAnswerBatch } from './interview-upload';

describe('buildAnswerBatch', () => {
  it('creates the answer with its client id and the video record with the file, in one batch', () => {
    const file = new Blob(['video'], { type: 'video/webm' });
    const answer: PendingAnswer = {
      id: 'abcdefghij12345',
      candidateId: 'cand1',
      questionId: 'q1',
      createdAt: 1,
      kind: 'video',
      file,
      fileName: 'answer.webm',
    };
    const form = buildAnswerBatch(answer);
    expect(JSON.parse(form.get('@jsonPayload') as string)).toEqual({
      requests: [
        {
          method: 'POST',
          url: '/api/collections/answers/records',
          body: { id: 'abcdefghij12345', candidate: 'cand1', question: 'q1' },
        },
        { method: 'POST', url: '/api/collections/video_answers/records', body: { answer: 'abcdefghij12345' } },
      ],
    });
    const sent = form.get('requests.1.file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('answer.webm');
  });

  it('puts a text answer in the JSON payload', () => {
    const form = buildAnswerBatch({ id: 'x', candidateId: 'c', questionId: 'q', createdAt: 1, kind: 'text', content: 'Hi' });
    const payload = JSON.parse(form.get('@jsonPayload') as string) as { requests: { body: unknown }[] };
    expect(payload.requests[1]).toEqual({
      method: 'POST',
      url: '/api/collections/text_answers/records',
      body: { answer: 'x', content: 'Hi' },
    });
    expect([...form.keys()]).toEqual(['@jsonPayload']);
  });
});

describe('batchErrorMessage', () => {
  it("reads the failing sub-request's field message, without PocketBase's trailing period", () => {
    const response = {
      status: 400,
      message: 'Batch transaction failed.',
      data: {
        requests: {
          '0': {
            code: 'batch_request_failed',
            message: 'Batch request failed.',
            response: {
              status: 400,
              message: 'This question has already been answered.',
              data: { question: { code: 'validation_not_unique', message: 'This question has already been answered.' } },
            },
          },
        },
      },
    };
    expect(batchErrorMessage(response)).toBe('This question has already been answered');
  });

  it('falls back to the top-level message, then a generic one', () => {
    expect(batchErrorMessage({ message: 'Too large.' })).toBe('Too large');
    expect(batchErrorMessage(null)).toBe('The upload failed');
  });
});
