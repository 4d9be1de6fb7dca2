import type { KeyboardCoordinateGetter } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';

import { KEYBOARD_STEP_PX, stepKeyboardCoordinates, swapQuestions } from './sortable-question-list';

function move(code: string) {
  const event = new KeyboardEvent('keydown', { code });
  const args = { currentCoordinates: { x: 100, y: 200 } } as Parameters<KeyboardCoordinateGetter>[1];
  return stepKeyboardCoordinates(event, args);
}

describe('stepKeyboardCoordinates', () => {
  it('moves 25 pixels per key press (spec §9)', () => {
    expect(KEYBOARD_STEP_PX).toBe(25);
    expect(move('ArrowDown')).toEqual({ x: 100, y: 225 });
    expect(move('ArrowUp')).toEqual({ x: 100, y: 175 });
    expect(move('ArrowRight')).toEqual({ x: 125, y: 200 });
    expect(move('ArrowLeft')).toEqual({ x: 75, y: 200 });
  });

  it('leaves other keys to the sensor', () => {
    expect(move('KeyA')).toBeUndefined();
  });
});

describe('swapQuestions', () => {
  it('swaps the dragged question with the one it is dropped on', () => {
    expect(swapQuestions(['a', 'b', 'c', 'd'], 'a', 'c')).toEqual(['c', 'b', 'a', 'd']);
    expect(swapQuestions(['a', 'b', 'c', 'd'], 'd', 'b')).toEqual(['a', 'd', 'c', 'b']);
  });

  it('keeps the order when dropped on itself or nowhere', () => {
    const ids = ['a', 'b'];
    expect(swapQuestions(ids, 'a', 'a')).toBe(ids);
    expect(swapQuestions(ids, 'a', undefined)).toBe(ids);
  });
});
