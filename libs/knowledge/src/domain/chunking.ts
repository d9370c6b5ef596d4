/** Chunks of about this many characters (decisions.md 39.5). */
export const CHUNK_CHARS = 1200;
/** Characters of the previous chunk repeated at the start of the next (a passage cut in two is still found). */
export const CHUNK_OVERLAP = 150;

/** Text as stored: NUL and other control characters dropped, runs of spaces and blank lines folded. */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .replace(/[ \t\u00A0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Splits text into chunks of at most `size` characters, cut at the last paragraph break, else
 * sentence end, else space of the window's second half; each chunk after the first starts with
 * the previous one's last `overlap` characters (from a word start).
 */
export function chunkText(text: string, size = CHUNK_CHARS, overlap = CHUNK_OVERLAP): string[] {
  const clean = cleanText(text);
  const chunks: string[] = [];
  let start = 0;
  while (start < clean.length) {
    let end = Math.min(start + size, clean.length);
    if (end < clean.length) {
      const window = clean.slice(start, end);
      const half = Math.floor(size / 2);
      const cut = [window.lastIndexOf('\n\n'), lastSentenceEnd(window), window.lastIndexOf(' ')].find((i) => i >= half);
      if (cut !== undefined) end = start + cut + 1;
    }
    const chunk = clean.slice(start, end).trim();
    if (chunk) chunks.push(chunk);
    if (end >= clean.length) break;
    let next = Math.max(end - overlap, start + 1);
    const space = clean.indexOf(' ', next);
    if (space !== -1 && space < end) next = space + 1;
    start = next;
  }
  return chunks;
}

function lastSentenceEnd(window: string): number {
  const matches = [...window.matchAll(/[.!?]\s/g)];
  return matches.length ? (matches[matches.length - 1].index ?? -1) + 1 : -1;
}
