/**
 * Reads a spreadsheet off the main thread: ExcelJS takes about a second on 5,000 rows, which would freeze the
 * page (and its progress bar) if it ran there. Message in: the File. Message out: { ok, sheet } or { ok, message }.
 */
import { readSpreadsheet } from './workbook.ts';

self.onmessage = async (event: MessageEvent<File>) => {
  try {
    self.postMessage({ ok: true, sheet: await readSpreadsheet(event.data) });
  } catch (error) {
    self.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
