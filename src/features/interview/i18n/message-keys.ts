import type en from './messages/en.json';

/** Every message of the candidate's screens: the keys of en.json, which every other catalog has too. */
export type MessageKey = keyof typeof en;

// react-intl checks every `formatMessage({ id })` and `<FormattedMessage id>` against en.json's keys at compile time.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- react-intl's own way to type its message ids
  namespace FormatjsIntl {
    interface Message {
      ids: MessageKey;
    }
  }
}

/** Whether a text carried in data (an upload's refusal) is one of the catalogs' keys. */
export function isMessageKey(messages: Readonly<Record<string, unknown>>, key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(messages, key);
}
