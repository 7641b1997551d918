/** readSpreadsheet in a Web Worker (read.worker.ts); on the main thread where workers cannot start. */
import { readSpreadsheet, type SheetData } from './workbook.ts';

type Answer = { ok: true; sheet: SheetData } | { ok: false; message: string };

export function readSpreadsheetOffThread(file: File): Promise<SheetData> {
  if (typeof Worker === 'undefined') return readSpreadsheet(file);
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./read.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      readSpreadsheet(file).then(resolve, reject);
      return;
    }
    worker.onmessage = (event: MessageEvent<Answer>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.sheet);
      else reject(new Error(event.data.message));
    };
    // The worker could not load: read here rather than not at all.
    worker.onerror = () => {
      worker.terminate();
      readSpreadsheet(file).then(resolve, reject);
    };
    worker.postMessage(file);
  });
}
