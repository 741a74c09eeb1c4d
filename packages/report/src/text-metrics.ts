// Advance widths of DejaVu Sans (per mille of the font size), measured with
// resvg. ECharts lays text out before anything is drawn and, without a
// canvas, guesses widths from Arial-like metrics; DejaVu Sans (Debian's
// default font, what resvg draws PNGs with) is ~10% wider, so legends and
// labels overlapped. Charts are laid out for the wider font; a browser
// using a narrower one only gets a little more room.
const CHARS = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~→≤±·—–×µ°…≥−';
const NORMAL = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 316, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 709, 686,
  698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 595, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615,
  344, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 395, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 838, 838, 838, 318, 1000, 500, 838, 636, 500, 1000,
  838, 838,
];
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762,
  734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 680, 703, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678,
  405, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 838, 838, 838, 380, 1000, 500, 838, 736, 500, 1000,
  838, 838,
];

const normal = new Map([...CHARS].map((c, i) => [c, NORMAL[i]!]));
const bold = new Map([...CHARS].map((c, i) => [c, BOLD[i]!]));
const SIZE_RE = /(\d+(?:\.\d+)?)px/;
const BOLD_RE = /\bbold(er)?\b|\b[6-9]00\b/;

/** Width in pixels of `text` in a CSS font shorthand such as `bold 16px DejaVu Sans`. */
export function measureText(text: string, font = '12px sans-serif'): { width: number } {
  const size = Number(SIZE_RE.exec(font)?.[1] ?? 12);
  const table = BOLD_RE.test(font) ? bold : normal;
  let width = 0;
  for (const char of text) width += table.get(char) ?? (char.charCodeAt(0) > 0x2e80 ? 1000 : 700);
  return { width: (width * size) / 1000 };
}
