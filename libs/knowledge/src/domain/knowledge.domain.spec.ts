import { AppError } from '@outreach/core';
import { assertRotatable, ChatbotProps, newEmbedKey } from './chatbot';
import { CHUNK_CHARS, chunkText, cleanText } from './chunking';
import { fuseRankings, RetrievedPassage } from './knowledge-base';
import { assertProvisioned, DocumentProps, documentTypeOf, ingestedStatus, provisioning, uploaded } from './document';

const doc = (over: Partial<DocumentProps> = {}): DocumentProps => ({
  id: 'd1',
  workspaceId: 'w1',
  name: 'Doc',
  fileName: 'doc.txt',
  type: 'txt',
  sizeBytes: null,
  externalId: null,
  status: 'AWAITING_UPLOAD',
  chunkCount: 0,
  error: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as AppError).code;
  }
  return null;
};

describe('document types', () => {
  it.each([
    ['a.PDF', null, 'pdf'],
    ['notes.txt', null, 'txt'],
    ['readme.markdown', null, 'md'],
    ['handbook.docx', null, 'docx'],
    ['upload', 'application/pdf', 'pdf'],
    ['upload', 'text/markdown; charset=utf-8', 'md'],
    ['photo.png', 'image/png', null],
    ['old.doc', 'application/msword', null],
  ])('%s (%s) → %s', (name, media, type) => {
    expect(documentTypeOf(name, media)).toBe(type);
  });
});

describe('document lifecycle (the transition table)', () => {
  it('AWAITING_UPLOAD → UPLOADED → PROCESSING → READY | FAILED; FAILED may be provisioned again', () => {
    expect(code(() => provisioning(doc()))).toBe('no_external_id');
    const up = uploaded(doc(), { fileName: 'a.txt', type: 'txt', sizeBytes: 3, externalId: 'k' }, new Date(1));
    expect(up).toMatchObject({ status: 'UPLOADED', externalId: 'k', sizeBytes: 3 });
    expect(provisioning(up)).toBe('PROCESSING');
    expect(provisioning({ ...up, status: 'PROCESSING' })).toBeNull();
    expect(provisioning({ ...up, status: 'READY' })).toBeNull();
    expect(provisioning({ ...up, status: 'FAILED' })).toBe('PROCESSING');
    expect(ingestedStatus({ ...up, status: 'PROCESSING' }, 'ingested')).toBe('READY');
    expect(ingestedStatus({ ...up, status: 'PROCESSING' }, 'failed')).toBe('FAILED');
    expect(ingestedStatus({ ...up, status: 'READY' }, 'failed')).toBeNull();
  });

  it('a provisioned document keeps its file; only provisioned documents join knowledge bases', () => {
    const processing = doc({ status: 'PROCESSING', externalId: 'k' });
    expect(code(() => uploaded(processing, { fileName: 'a.txt', type: 'txt', sizeBytes: 1, externalId: 'k2' }, new Date()))).toBe('invalid_request');
    expect(code(() => assertProvisioned(doc({ status: 'UPLOADED', externalId: 'k' })))).toBe('document_not_provisioned');
    expect(code(() => assertProvisioned(processing))).toBeNull();
  });
});

describe('chunking', () => {
  it('cleans control characters and folds blank runs', () => {
    expect(cleanText('a\u0000b\r\n\r\n\r\n\r\nc   d\t\te')).toBe('ab\n\nc d e');
  });

  it('short text is one chunk; long text is cut at sentence or paragraph ends, within the size, overlapping', () => {
    expect(chunkText('One short paragraph.')).toEqual(['One short paragraph.']);
    expect(chunkText('  \n ')).toEqual([]);
    const sentences = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} says something useful.`).join(' ');
    const chunks = chunkText(sentences);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_CHARS);
    for (const c of chunks.slice(0, -1)) expect(c.endsWith('.')).toBe(true);
    // Every sentence is in some chunk whole, and consecutive chunks share text.
    for (let i = 0; i < 200; i++) expect(chunks.some((c) => c.includes(`Sentence number ${i} says something useful.`))).toBe(true);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]).toContain(chunks[i - 1].slice(-40));
  });

  it('text without spaces is still cut at the size', () => {
    const chunks = chunkText('x'.repeat(3000));
    expect(chunks[0]).toHaveLength(CHUNK_CHARS);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_CHARS);
    expect(chunks.join('').length).toBeGreaterThanOrEqual(3000);
  });
});

describe('embed keys', () => {
  it('are cbk_ + 43 base64url characters, different each time', () => {
    const a = newEmbedKey();
    expect(a).toMatch(/^cbk_[A-Za-z0-9_-]{43}$/);
    expect(newEmbedKey()).not.toBe(a);
  });

  it('a rotation must start from the current version (rotation_conflict otherwise)', () => {
    const bot = { embedKeyVersion: 3 } as ChatbotProps;
    expect(code(() => assertRotatable(bot, 3))).toBeNull();
    expect(code(() => assertRotatable(bot, 2))).toBe('rotation_conflict');
  });
});

describe('fuseRankings (reciprocal-rank fusion of full-text and embedding rankings)', () => {
  const p = (documentId: string, seq = 1): RetrievedPassage => ({ documentId, documentName: documentId, seq, content: documentId, score: 0 });
  it('a passage high in both rankings wins; one ranking alone still counts; the limit applies', () => {
    const fused = fuseRankings([[p('a'), p('b'), p('c')], [p('b'), p('d')]], 3);
    expect(fused.map((x) => x.documentId)).toEqual(['b', 'a', 'd']);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fuseRankings([[], []], 5)).toEqual([]);
    expect(fuseRankings([[p('a', 2), p('a', 1)]], 5).map((x) => x.seq)).toEqual([2, 1]);
  });
});
