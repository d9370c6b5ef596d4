/** The brief formats POST /campaigns/from-brief reads (anything else: 415 unsupported_brief_type). */
export type BriefFormat = 'pdf' | 'text' | 'markdown';

const BY_EXTENSION: Record<string, BriefFormat> = { pdf: 'pdf', txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown' };
const BY_MEDIA_TYPE: Record<string, BriefFormat> = {
  'application/pdf': 'pdf',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
};

/**
 * The format of an uploaded brief: by the file name's extension when it has one (clients send
 * `application/octet-stream` for everything), else by the declared media type; null when neither
 * names PDF, text or Markdown.
 */
export function briefFormatOf(fileName: string, mediaType: string): BriefFormat | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (extension !== undefined) return BY_EXTENSION[extension] ?? null;
  return BY_MEDIA_TYPE[mediaType.split(';')[0].trim().toLowerCase()] ?? null;
}

/** A PDF starts with `%PDF-` (within its first KiB, as readers tolerate). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/** How much of the brief the model reads (the whole text is stored on the campaign, up to its bound). */
export const BRIEF_CHARS_FOR_MODEL = 20_000;
/** The campaign's briefText bound (the campaign body's #20). */
export const BRIEF_CHARS_STORED = 200_000;

/** Text with its line ends normalised, NUL and other control characters (but tab and newline) removed, trimmed. */
export function cleanBriefText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
