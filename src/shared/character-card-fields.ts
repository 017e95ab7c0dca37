/** The "file" field of the multipart character-card import and preview requests. */
export const CARD_FILE_FIELD = 'file';
