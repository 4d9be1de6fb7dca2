/** What the app calls a person it names: a manager, a comment's author, a link's creator, an audit entry's actor. */
export type NamedPerson = { firstName?: string | null; lastName?: string | null; email?: string | null };

/** "First Last", trimmed; '' when the person has neither. */
export function fullName(person: NamedPerson): string {
  return `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
}

/** The person's full name, or their e-mail address when they have no name. */
export function nameOrEmail(person: NamedPerson): string {
  return fullName(person) || (person.email ?? '');
}
