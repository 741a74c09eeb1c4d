/** Values a spec could carry that a shell would interpret if they were pasted into a command line. */
export const HOSTILE_ARGS = [
  'a; touch /tmp/nb-pwned', '$(touch /tmp/nb-pwned)', '`touch /tmp/nb-pwned`', "it's", '"double"', 'two words',
  'line1\nline2', '*', '~', '', ' ', '\\', '$HOME', '-n', 'A=b', '|&<>()', '!', '#comment', "'", "''\n'\\''",
];
