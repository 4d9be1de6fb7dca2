/**
 * The value of the company switcher's 'New company' entry (issue 16): no company id looks like it (PocketBase ids
 * are 15 [a-z0-9]). A module of its own: the switcher reads it with the page, the select's code loads on demand.
 */
export const NEW_COMPANY_VALUE = '+new';
