import PocketBase from 'pocketbase';
import { describe, expect, it } from 'vitest';

import { DEFAULT_PIPELINE, pipelineListQuery, readPipelineState, writePipelineState } from './pipeline-query';

describe('the pipeline in the URL', () => {
  it('reads what it wrote, and the defaults from nothing', () => {
    const state = { sort: 'averageRating', dir: 'asc', status: 'started', decision: 'none', q: 'ann', page: 3 } as const;
    expect(readPipelineState(writePipelineState(state))).toEqual(state);
    expect(readPipelineState(new URLSearchParams())).toEqual(DEFAULT_PIPELINE);
    expect(writePipelineState(DEFAULT_PIPELINE).toString()).toBe('');
  });

  it('takes nothing it does not know', () => {
    const state = readPipelineState(new URLSearchParams('sort=secret&dir=up&status=hired&decision=maybe&page=-2'));
    expect(state).toEqual(DEFAULT_PIPELINE);
  });

  it('binds every value, and sorts a status by the answers stored, the id last', () => {
    const pb = new PocketBase('http://127.0.0.1');
    const query = pipelineListQuery(pb, 'job1', { ...DEFAULT_PIPELINE, sort: 'status', dir: 'asc', status: 'completed', decision: 'hold', q: '" || id != "' });
    expect(query.sort).toBe('answeredCount,id');
    expect(query.filter).toBe('job = "job1" && status = "completed" && decision = "hold" && email ~ "\\" || id != \\""');
    expect(pipelineListQuery(pb, 'job1', { ...DEFAULT_PIPELINE, decision: 'none' })).toEqual({ filter: 'job = "job1" && decision = \'\'', sort: '-created,-id' });
  });
});
