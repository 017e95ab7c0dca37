// The embedded moderation classifier: no key, no download, well under a millisecond a message.
// `obscenity` finds profanity and slurs through obfuscation (f4gg0t, b1tch); our own patterns find
// the categories, and only in the frames that make them harmful: insults aimed at the person
// addressed, hatred of a group, threats in the first person against someone, sexual talk, sexual
// content involving minors, wishes or instructions for self-harm. Context words keep a historian's
// battle, "kill the process", a doctor's symptoms or a novel's plot summary out of the flags.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { ModerationCategory, ModerationResult } from './moderation-types';

const profanity = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/** Words from `obscenity`'s list that are slurs against a group, not plain swearing. */
const SLURS = new Set(['fag', 'faggot', 'nigger', 'nigga', 'retard', 'tranny', 'chink', 'spic', 'kike', 'dyke', 'gook', 'wetback', 'coon']);
/** Its sexual words (profanity that is about sex). */
const SEXUAL_WORDS = new Set(['cock', 'dick', 'pussy', 'cunt', 'cum', 'blowjob', 'handjob', 'dildo', 'penis', 'vagina', 'boob', 'tits', 'titties', 'porn', 'orgasm', 'masturbate', 'jizz', 'semen']);

const w = (source: string) => new RegExp(source, 'i');

const YOU = String.raw`(?:you|u|ya|yourself|your\s+\w+)`;
const INSULT = String.raw`(?:idiot|moron|stupid|dumb|worthless|pathetic|loser|useless|ugly|disgusting|imbecile|failure|waste\s+of\s+(?:space|air)|piece\s+of\s+(?:shit|garbage|trash)|scum|freak|trash|garbage|clown)`;
const GROUP = String.raw`(?:jews?|muslims?|christians?|blacks?|whites?|asians?|mexicans?|arabs?|immigrants?|refugees?|gays?|lesbians?|trans(?:gender)?\s*(?:people|women|men)?|women|girls|disabled\s+people|gypsies|roma|africans?|indians?|chinese)`;
const KILL = String.raw`(?:kill|murder|shoot|stab|strangle|hurt|beat\s+up|bomb|slaughter|butcher|rape|torture|burn)`;
const VICTIM = String.raw`(?:you|u|him|her|them|everyone|every\s*one|everybody|your\s+\w+|my\s+(?:wife|husband|boss|teacher|neighbou?r|family|classmates?|coworkers?|ex)|the\s+(?:whole\s+)?(?:class|school|office))`;
const MINOR = String.raw`(?:child(?:ren)?|kids?|minors?|underage|under-age|toddlers?|little\s+(?:girls?|boys?)|schoolgirls?|schoolboys?|preteens?|pre-teens?|(?:[1-9]|1[0-7])[\s-]*(?:years?|yrs?)[\s-]*old)`;
const SEX_ACT = String.raw`(?:sex(?:ual(?:ly)?)?|nude|naked|porn\w*|erotic|molest\w*|touch(?:ing)?\s+(?:them|him|her)\s+(?:sexually|inappropriately)|fuck\w*|aroused|horny|explicit\s+(?:photos?|pictures?|images?))`;

interface Rule {
  category: ModerationCategory;
  confidence: number;
  pattern: RegExp;
  /** The rule does not apply when this also matches (context that makes it harmless). */
  unless?: RegExp;
}

// Contexts that make violent words harmless: computing, games and fiction, history, sport, cooking.
const HARMLESS_VIOLENCE = w(
  String.raw`\b(?:kill|killing|killed)\s+(?:the\s+|a\s+|this\s+|that\s+|all\s+)?(?:process(?:es)?|task|job|server|app|program|thread|session|tab|window|daemon|container|pod|lights?|engine|music|time|it\s+on\s+stage|the\s+mood|weeds?|bacteria|germs|boss\s+(?:level|fight))\b|\b(?:battle|war|army|troops|soldiers|century|empire|historians?|novel|film|movie|game|character|chapter|recipe|chess)\b`,
);
const MEDICAL = w(String.raw`\b(?:doctor|patient|symptoms?|diagnos\w*|clinic|nurse|medical|treatment|prescri\w*|exam(?:ination)?|gp|gynaecolog\w*|gynecolog\w*|urolog\w*|screening)\b`);

const RULES: Rule[] = [
  // Harassment: insults aimed at the person addressed.
  { category: 'harassment', confidence: 0.85, pattern: w(String.raw`\b${YOU}\s+(?:are|r|re|'re|is)\s+(?:such\s+|a\s+|an\s+|so\s+|the\s+most\s+|just\s+a\s+)*${INSULT}\b`) },
  { category: 'harassment', confidence: 0.8, pattern: w(String.raw`\byou(?:'re|\s+are)?\s+(?:a\s+|an\s+|such\s+a\s+)?(?:fucking\s+|stupid\s+|worthless\s+)*${INSULT}\b`) },
  { category: 'harassment', confidence: 0.8, pattern: w(String.raw`\b(?:shut\s+(?:the\s+fuck\s+)?up|nobody\s+(?:likes|loves|cares\s+about)\s+you|go\s+(?:to\s+hell|fuck\s+yourself|die)|get\s+lost,?\s+${INSULT})\b`) },
  { category: 'harassment', confidence: 0.75, pattern: w(String.raw`\b(?:i\s+hate\s+you|you\s+(?:disgust|sicken)\s+me|you\s+should\s+be\s+ashamed\s+of\s+(?:yourself|existing))\b`) },
  // Hate: a group described as less than human, or wished gone.
  { category: 'hate', confidence: 0.9, pattern: w(String.raw`\b(?:all\s+|those\s+|these\s+|the\s+)?${GROUP}\s+(?:are|is)\s+(?:all\s+)?(?:animals|vermin|subhuman|sub-human|parasites|rats|cockroaches|filth|inferior|a\s+disease|a\s+plague|evil|scum|trash)\b`) },
  { category: 'hate', confidence: 0.9, pattern: w(String.raw`\b${GROUP}\s+(?:should|must|need\s+to|deserve\s+to)\s+(?:all\s+)?(?:die|be\s+(?:killed|exterminated|wiped\s+out|gassed|deported|shot|banned\s+from\s+existing)|go\s+back\s+where\s+they\s+came\s+from)\b`) },
  { category: 'hate', confidence: 0.85, pattern: w(String.raw`\bi\s+(?:hate|despise|can't\s+stand|cannot\s+stand)\s+(?:all\s+)?${GROUP}\b`) },
  // Violence: threats in the first person (severe), wishes and instructions to harm.
  { category: 'violence/threat', confidence: 0.92, pattern: w(String.raw`\bi(?:'m|\s+am|'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|\s+want\s+to|\s+wanna|\s+gonna|\s+plan\s+to|\s+intend\s+to|'d\s+love\s+to)\s+(?:going\s+to\s+|gonna\s+)?${KILL}\s+${VICTIM}\b`), unless: HARMLESS_VIOLENCE },
  { category: 'violence/threat', confidence: 0.85, pattern: w(String.raw`\b(?:i\s+know\s+where\s+you\s+live|you(?:'re|\s+are)\s+(?:going\s+to\s+)?(?:dead|die)\s+(?:tonight|tomorrow|soon)|watch\s+your\s+back|you\s+won't\s+live\s+(?:to|through))\b`) },
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`\b(?:shoot\s+up|bomb|blow\s+up)\s+(?:the|my|a|our)\s+(?:school|office|church|mosque|synagogue|mall|concert|class)\b`), unless: w(String.raw`\b(?:film|movie|novel|game|news|report|history|historians?)\b`) },
  { category: 'violence', confidence: 0.85, pattern: w(String.raw`\bhow\s+(?:to|do\s+i|can\s+i|would\s+i)\s+(?:make|build|assemble)\s+(?:a\s+|an\s+)?(?:pipe\s+)?(?:bomb|explosive|ied|molotov)\b`) },
  { category: 'violence', confidence: 0.8, pattern: w(String.raw`\b(?:how\s+(?:to|do\s+i|can\s+i)|best\s+way\s+to)\s+(?:kill|murder|poison|strangle)\s+(?:someone|a\s+person|my\s+\w+|him|her|people)\b`) },
  { category: 'violence', confidence: 0.7, pattern: w(String.raw`\b(?:i\s+(?:want|wish|hope)\s+(?:to\s+see\s+)?(?:you|him|her|them)\s+(?:to\s+)?(?:die|suffer|bleed|get\s+(?:hurt|killed|shot)))\b`) },
  // Sexual content involving minors (severe): a sexual term and a minor in the same message.
  { category: 'sexual/minors', confidence: 0.95, pattern: w(String.raw`\b${SEX_ACT}\b[\s\S]{0,80}\b${MINOR}\b|\b${MINOR}\b[\s\S]{0,80}\b${SEX_ACT}\b`), unless: w(String.raw`\b(?:protect\w*|safeguard\w*|prevent\w*|report\w*|education|sex\s+ed|abuse\s+(?:survivors?|awareness|prevention)|charity|hotline|puberty|biology\s+class)\b`) },
  // Sexual: explicit requests and descriptions.
  { category: 'sexual', confidence: 0.8, pattern: w(String.raw`\b(?:send\s+(?:me\s+)?(?:nudes|nude\s+(?:pics|photos)|naked\s+(?:pics|photos))|have\s+sex\s+with\s+(?:me|you)|(?:talk|get)\s+dirty|sext(?:ing)?\s+(?:me|with)|take\s+(?:off\s+)?(?:your|my)\s+clothes\s+off|make\s+me\s+(?:cum|come|horny)|suck\s+my|touch\s+yourself)\b`) },
  { category: 'sexual', confidence: 0.75, pattern: w(String.raw`\b(?:describe|tell\s+me\s+about|write)\b[\s\S]{0,40}\b(?:sex\s+scene|sexual\s+fantas\w+|(?:your|our)\s+(?:naked\s+body|orgasm))\b`) },
  // Self-harm: instructions (severe) and wishes (flagged, answered with care by the model).
  { category: 'self-harm/instructions', confidence: 0.95, pattern: w(String.raw`\b(?:how\s+(?:to|do\s+i|can\s+i|should\s+i)|best\s+way\s+to|easiest\s+way\s+to|painless\s+way\s+to|quickest\s+way\s+to)\s+(?:kill\s+myself|commit\s+suicide|end\s+my\s+(?:own\s+)?life|hang\s+myself|overdose|cut\s+(?:myself|my\s+wrists)|slit\s+my\s+wrists|die\s+(?:painlessly|quickly|in\s+my\s+sleep))\b`) },
  { category: 'self-harm/instructions', confidence: 0.9, pattern: w(String.raw`\bhow\s+many\s+(?:pills|tablets|paracetamol|sleeping\s+pills)\s+(?:does\s+it\s+take\s+)?(?:to|would|will|do\s+i\s+need\s+to)\s+(?:die|kill\s+(?:me|myself|you)|overdose)\b`) },
  { category: 'self-harm', confidence: 0.85, pattern: w(String.raw`\bi\s+(?:want|wanna|am\s+going|'m\s+going|plan|intend|am\s+ready|'m\s+ready)\s+(?:to\s+)?(?:kill\s+myself|die|end\s+(?:it\s+all|my\s+life|everything)|hurt\s+myself|cut\s+myself|disappear\s+forever)\b`) },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\b(?:i(?:'ve|\s+have)\s+been\s+(?:cutting|hurting|burning)\s+myself|i\s+(?:don't|do\s+not)\s+want\s+to\s+(?:live|be\s+alive)(?:\s+anymore)?|life\s+is(?:n't|\s+not)\s+worth\s+living|better\s+off\s+dead|no\s+reason\s+to\s+live)\b`) },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\b(?:you\s+should|go|just\s+go)\s+(?:kill\s+yourself|kys|end\s+your\s+life|hang\s+yourself)\b|\bkys\b`) },
];

/** Obfuscated profanity and slurs, through `obscenity`. */
function profanityFindings(text: string): { category: ModerationCategory; confidence: number }[] {
  const found: { category: ModerationCategory; confidence: number }[] = [];
  const matches = profanity.getAllMatches(text);
  if (matches.length === 0) return found;
  const words = matches.map((m) => englishDataset.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '');
  const aimed = new RegExp(String.raw`\b${YOU}\b`, 'i').test(text);
  if (words.some((x) => SLURS.has(x))) found.push({ category: 'hate', confidence: aimed ? 0.9 : 0.8 });
  const sexual = words.filter((x) => SEXUAL_WORDS.has(x));
  if (sexual.length > 0 && !MEDICAL.test(text)) found.push({ category: 'sexual', confidence: Math.min(0.85, 0.45 + 0.2 * sexual.length) });
  // Swearing aimed at someone is harassment; swearing alone is not flagged.
  const swearing = words.filter((x) => !SLURS.has(x) && !SEXUAL_WORDS.has(x));
  if (aimed && swearing.length > 0) found.push({ category: 'harassment', confidence: Math.min(0.85, 0.5 + 0.15 * swearing.length) });
  return found;
}

export interface OfflineClassifierOptions {
  /** Categories at or above this confidence are reported (MODERATION_THRESHOLD). */
  threshold: number;
}

export function classifyOffline(text: string, opts: OfflineClassifierOptions): ModerationResult {
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text;
  const best = new Map<ModerationCategory, number>();
  const note = (category: ModerationCategory, confidence: number) => best.set(category, Math.max(best.get(category) ?? 0, confidence));
  for (const rule of RULES) {
    const m = rule.pattern.exec(sample);
    if (!m) continue;
    if (rule.unless) {
      // The harmless context must be near the match (the same sentence or so), not anywhere.
      const around = sample.slice(Math.max(0, m.index - 120), m.index + m[0].length + 120);
      if (rule.unless.test(around)) continue;
    }
    note(rule.category, rule.confidence);
  }
  for (const f of profanityFindings(sample)) note(f.category, f.confidence);
  const all = [...best.entries()].map(([type, confidence]) => ({ type, confidence })).sort((a, b) => b.confidence - a.confidence);
  return { categories: all.filter((c) => c.confidence >= opts.threshold), confidence: all[0]?.confidence ?? 0 };
}

export function createOfflineModerator(opts: OfflineClassifierOptions) {
  return { name: 'offline', classify: async (text: string) => classifyOffline(text, opts) };
}
