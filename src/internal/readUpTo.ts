/**
 * Reads a response body as text up to `maxBytes`, then cancels the rest
 * unread: a body past that cannot fill memory, whatever the server sends.
 * `cut` says whether there was more.
 */
export async function readUpTo(response: Response, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: "", cut: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), cut: false };
    const room = maxBytes - bytes;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { text: text + decoder.decode(value.subarray(0, room)), cut: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}
