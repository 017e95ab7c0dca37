// Where focus goes in the library when what held it goes away (a conversation left, a card deleted).

/** The library's title; focus lands on it when there is no better place (it has tabIndex -1). */
export const LIBRARY_TITLE_ID = 'personalities-title';

/** The id of a card's Start Chat button (focus returns to it when its conversation is left). */
export const startChatButtonId = (personalityId: string) => `start-chat-${personalityId}`;
