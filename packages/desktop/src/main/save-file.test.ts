import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticRegistry } from '@netbench/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';
import { saveRendererFile } from './save-file.js';

// Electron's save dialog is the one piece not run here: it is stood in for by
// a function answering a path, exactly what `dialog.showSaveDialog` gives
// electron-main.ts; the writing and the checks are the real code.
const dir = mkdtempSync(join(tmpdir(), 'nbt-desktop-save-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);

describe('saveFile: exports and chart pictures saved by the main process', () => {
  it('writes text and base64 content byte for byte where the dialog says', async () => {
    const text = await saveRendererFile({ fileName: 'run.csv', mimeType: 'text/csv', content: 'metric,value\nlatency,µs 42\n', encoding: 'utf8' }, async (f) =>
      join(dir, `chosen-${f.fileName}`),
    );
    expect(text).toEqual({ saved: true, path: join(dir, 'chosen-run.csv'), bytes: Buffer.byteLength('metric,value\nlatency,µs 42\n') });
    expect(readFileSync(join(dir, 'chosen-run.csv'), 'utf8')).toBe('metric,value\nlatency,µs 42\n');
    const png = await saveRendererFile({ fileName: 'chart.png', mimeType: 'image/png', content: PNG.toString('base64'), encoding: 'base64' }, async () => join(dir, 'chart.png'));
    expect(png.bytes).toBe(PNG.length);
    expect(readFileSync(join(dir, 'chart.png')).equals(PNG)).toBe(true);
  });

  it('writes nothing when the dialog is cancelled, or for content that is not base64 or a path that is not absolute', async () => {
    let asked = 0;
    expect(
      await saveRendererFile({ fileName: 'x.json', mimeType: 'application/json', content: '{}', encoding: 'utf8' }, async () => {
        asked++;
        return undefined;
      }),
    ).toEqual({ saved: false });
    expect(asked).toBe(1);
    await expect(saveRendererFile({ fileName: 'x.png', mimeType: 'image/png', content: 'not base64!', encoding: 'base64' }, async () => join(dir, 'never.png'))).rejects.toThrow(
      /not base64/,
    );
    await expect(saveRendererFile({ fileName: 'x.png', mimeType: 'image/png', content: 'AAAA', encoding: 'base64' }, async () => 'relative.png')).rejects.toThrow(/relative path/);
  });

  it('is reachable over the bridge only when the shell provides a dialog', async () => {
    const electron = createDesktopApi({ registry: staticRegistry([]), version: 'test', shell: 'electron', chooseSavePath: async (f) => join(dir, f.fileName) });
    const result = await dispatchCall(electron.api, 'saveFile', { fileName: 'report.html', mimeType: 'text/html', content: '<p>run</p>', encoding: 'utf8' });
    expect(result).toEqual({ ok: true, value: { saved: true, path: join(dir, 'report.html'), bytes: 10 } });
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('<p>run</p>');
  });
});
