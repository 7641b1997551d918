/**
 * Calls that answer a file (an export streamed by the server): POST the JSON body with the session's token and
 * hand the answer to the browser as a download, under the name the server gives (or `fallbackName`). A refusal
 * throws the server's sentence.
 */
import { getToken } from './session.ts';

export async function downloadFile(path: string, body: unknown, fallbackName: string): Promise<void> {
  const token = getToken();
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const payload = (await response.json().catch(() => undefined)) as { result?: string } | undefined;
    throw new Error(payload?.result ?? `HTTP ${response.status}`);
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = named;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
