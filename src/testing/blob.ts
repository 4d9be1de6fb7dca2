/**
 * A blob's bytes: through FileReader for jsdom's Blob (which has neither arrayBuffer() nor text()), through
 * arrayBuffer() for one a fetch response made (Node's own Blob, which jsdom's FileReader does not take).
 */
export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('the blob could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/** A CSV blob's text after its byte-order mark, which it must start with (decoded without stripping it). */
export async function csvBlobText(blob: Blob): Promise<string> {
  const bytes = await blobBytes(blob);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (!text.startsWith('\uFEFF')) throw new Error(`the file does not start with a byte-order mark: ${JSON.stringify(text.slice(0, 20))}`);
  return text.slice(1);
}
