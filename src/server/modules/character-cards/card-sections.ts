// A card's definition fields as Kindred's behaviour instructions, each under its label, and back
// again for export. The first section carries the part of a long description that did not fit in
// the personality's description (card-description.ts); the export joins it back.
import { messages } from '../../../shared/messages';

export interface CardSections {
  description_continued: string;
  personality: string;
  scenario: string;
  system_prompt: string;
  post_history_instructions: string;
}

/** The labels behaviour instructions are written with, in order (SillyTavern's prompt order). */
export const SECTION_LABELS: [keyof CardSections, string][] = [
  ['description_continued', messages.cards.descriptionContinuedLabel],
  ['personality', 'Personality'],
  ['scenario', 'Scenario'],
  ['system_prompt', 'System prompt'],
  ['post_history_instructions', 'Post-history instructions'],
];

export function emptySections(): CardSections {
  return { description_continued: '', personality: '', scenario: '', system_prompt: '', post_history_instructions: '' };
}

/** "Personality:\n...\n\nScenario:\n..." with only the sections that have text, in order. */
export function sectionsToInstructions(sections: CardSections): string {
  return SECTION_LABELS.filter(([key]) => sections[key] !== '')
    .map(([key, label]) => `${label}:\n${sections[key]}`)
    .join('\n\n');
}

/** The reverse of sectionsToInstructions; text before any label (or without labels) is the system prompt. */
export function instructionsToSections(text: string | null): CardSections {
  const out = emptySections();
  if (!text?.trim()) return out;
  const labelOf = new Map(SECTION_LABELS.map(([key, label]) => [`${label}:`, key]));
  let current: keyof CardSections | null = null;
  const collected: Record<string, string[]> = {};
  const preamble: string[] = [];
  for (const line of text.split('\n')) {
    const key = labelOf.get(line.trim());
    if (key && collected[key] === undefined) {
      current = key;
      collected[key] = [];
      continue;
    }
    (current ? collected[current]! : preamble).push(line);
  }
  for (const [key] of SECTION_LABELS) out[key] = (collected[key] ?? []).join('\n').trim();
  const pre = preamble.join('\n').trim();
  if (pre) out.system_prompt = out.system_prompt ? `${pre}\n\n${out.system_prompt}` : pre;
  return out;
}
