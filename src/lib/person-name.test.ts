import { describe, expect, it } from 'vitest';

import { fullName, nameOrEmail } from './person-name';

describe('naming a person', () => {
  it('joins first and last name, trimmed, and falls back to the address only where asked', () => {
    expect(fullName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace');
    expect(fullName({ firstName: 'Ada', lastName: '' })).toBe('Ada');
    expect(fullName({ firstName: '', lastName: 'Lovelace' })).toBe('Lovelace');
    expect(fullName({ firstName: '', lastName: '', email: 'ada@example.com' })).toBe('');
    expect(nameOrEmail({ firstName: '', lastName: '', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(nameOrEmail({ firstName: null, lastName: undefined, email: 'ada@example.com' })).toBe('ada@example.com');
    expect(nameOrEmail({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace');
  });
});
