import { describe, expect, it } from 'vitest';

import type { PendingAnswer } from '@/lib/answer-store';

import { answerErrorMessage, buildAnswerForm } from './interview-upload';

describe('buildAnswerForm', () => {
  it('sends the answer with its client id, and the video file under `file`', () => {
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
    const form = buildAnswerForm(answer);
    expect([...form.keys()]).toEqual(['id', 'candidate', 'question', 'file']);
    expect(form.get('id')).toBe('abcdefghij12345');
    expect(form.get('candidate')).toBe('cand1');
    expect(form.get('question')).toBe('q1');
    const sent = form.get('file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('answer.webm');
    expect((sent as File).size).toBe(file.size);
  });

  it('sends a text answer as `content`, with no file', () => {
    const form = buildAnswerForm({ id: 'x', candidateId: 'c', questionId: 'q', createdAt: 1, kind: 'text', content: 'Hi' });
    expect([...form.keys()]).toEqual(['id', 'candidate', 'question', 'content']);
    expect(form.get('content')).toBe('Hi');
  });
});

describe('answerErrorMessage', () => {
  it("reads a field's message, without PocketBase's trailing period", () => {
    const response = {
      status: 400,
      message: 'Failed to create record.',
      data: { question: { code: 'validation_not_unique', message: 'This question has already been answered.' } },
    };
    expect(answerErrorMessage(response)).toBe('This question has already been answered');
  });

  it('falls back to the top-level message, then a generic one', () => {
    expect(answerErrorMessage({ message: 'Failed to create record.', data: {} })).toBe('Failed to create record');
    expect(answerErrorMessage(null)).toBe('The upload failed');
  });
});
