// C0 controls but tab and newline, DEL, C1 controls, and bidi overrides: what a terminal acts on instead of showing.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text safe to write to a terminal: escape sequences and other control
 * characters from spec values, tool output or file names are shown as
 * `\x1b`/`\u202e` instead of being obeyed (a value cannot retitle the window,
 * clear the screen or hide text). Newlines and tabs stay.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
