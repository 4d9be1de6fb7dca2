/**
 * What the interview's answer upload (src/features/interview/api/answer-transport.ts, postAnswer) touches of an
 * XMLHttpRequest, inert: a test's stand-in extends it, records what it is sent and answers in send(). Uploads go by
 * XMLHttpRequest for its progress events, and jsdom's FormData carries jsdom's Blob, which MSW cannot read back in
 * Node, so the unit tests answer the answers route themselves.
 */
export class FakeXhr {
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  status = 0;
  response: unknown = null;
  responseType = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  /* eslint-disable @typescript-eslint/no-unused-vars -- inert: a stand-in that records these overrides them */
  open(_method: string, _url: string): void {}
  setRequestHeader(_name: string, _value: string): void {}
  getResponseHeader(_name: string): string | null {
    return null;
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
}
