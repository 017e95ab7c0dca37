// A document's extracted text is kept in pieces (personality_document_texts): it must come back
// exactly as written, whatever its size and wherever a piece boundary falls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { personalityDocumentTexts } from '../../db/schema/documents';
import { TEXT_PIECE_CHARS, insertDocument, loadForProcessing, readText, writeText } from './documents.repository';
import { createPersonality } from './documents.test-support';

let server: TestServer;
let pid: string;
beforeAll(async () => {
  server = await startTestServer();
  pid = await createPersonality(await server.user());
});
afterAll(async () => {
  await server?.close();
});

describe('document text in pieces', () => {
  it('round-trips a text of several pieces, never splitting a character across two', async () => {
    const db = server.database.db;
    // An emoji (two UTF-16 units) straddles the first boundary; accents and CJK elsewhere.
    const text = 'a'.repeat(TEXT_PIECE_CHARS - 1) + '😀' + 'é漢字 '.repeat(100_000) + 'end';
    const doc = await insertDocument(db, { personalityId: pid, fileName: 'big.txt', content: text });
    expect(doc.hasContent).toBe(true);
    const pieces = (await db.select().from(personalityDocumentTexts).where(eq(personalityDocumentTexts.documentId, doc.id))).sort(
      (a, b) => a.pieceIndex - b.pieceIndex,
    );
    expect(pieces.length).toBe(3);
    // The first piece stops before the emoji rather than cutting it in half.
    expect(pieces[0]!.text.length).toBe(TEXT_PIECE_CHARS - 1);
    expect(pieces[1]!.text.startsWith('😀')).toBe(true);
    for (const p of pieces) expect(p.text.length).toBeLessThanOrEqual(TEXT_PIECE_CHARS);
    expect(await readText(db, doc.id)).toBe(text);
    expect((await loadForProcessing(db, doc.id))?.content).toBe(text);

    // Rewriting replaces every piece (a shorter text leaves none of the old ones behind).
    await writeText(db, doc.id, 'short');
    expect(await readText(db, doc.id)).toBe('short');
    expect(await db.select().from(personalityDocumentTexts).where(eq(personalityDocumentTexts.documentId, doc.id))).toHaveLength(1);
  });

  it('tells a document with no text yet from one whose text is empty', async () => {
    const db = server.database.db;
    const none = await insertDocument(db, { personalityId: pid, fileName: 'none.txt' });
    expect(none.hasContent).toBe(false);
    expect((await loadForProcessing(db, none.id))?.content).toBeNull();
    const empty = await insertDocument(db, { personalityId: pid, fileName: 'empty.txt', content: '' });
    expect(empty.hasContent).toBe(true);
    expect(await readText(db, empty.id)).toBe('');
  });
});
