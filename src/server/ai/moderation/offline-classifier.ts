// The embedded moderation classifier: no key, no download, well under a millisecond a message.
// `obscenity` finds profanity and slurs through obfuscation (f4gg0t, b1tch); our own patterns find
// the categories, and only in the frames that make them harmful: insults aimed at the person
// addressed, hatred of a group, threats in the first person (singular or plural) against someone or
// a place, instructions for weapons or for harming someone covertly, sexual talk, sexual content
// involving minors, wishes or instructions for self-harm, and telling someone to kill themselves.
// Context words keep a historian's battle, "kill the process", a doctor's symptoms, a novel's plot,
// "shoot you an email", a sexy sports car or a summa cum laude out of the flags.
//
// Text is normalised first (curly apostrophes, zero-width characters, letters written as digits in
// words such as "k1ll"), so "you’re" and "you're" are the same to every rule.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { ModerationCategory, ModerationResult } from './moderation-types';

const profanity = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/** Words from `obscenity`'s list that are slurs against a group, not plain swearing. */
const SLURS = new Set(['fag', 'faggot', 'nigger', 'nigga', 'retard', 'tranny', 'chink', 'spic', 'kike', 'dyke', 'gook', 'wetback', 'coon']);
/** Its sexual words (profanity that is about sex). */
const SEXUAL_WORDS = new Set(['cock', 'dick', 'pussy', 'cunt', 'cum', 'blowjob', 'handjob', 'dildo', 'penis', 'vagina', 'boob', 'tits', 'titties', 'porn', 'orgasm', 'masturbate', 'jizz', 'semen']);
/** Harmless phrases that contain one of its words (a rooster, a novel, a willow, a degree). */
const HARMLESS_PROFANITY = /\b(?:moby[\s-]+dick|(?:philip\s+k\.?\s+|van\s+)?dick(?=\s+(?:van\s+dyke|turpin|whittington|tracy|grayson|cheney))|tricky\s+dick|pussy\s*(?:willows?|cats?|foot(?:ing)?)|puss\s+in\s+boots|(?:summa|magna|maxima)?\s*cum\s+laude|(?:the|a|our|his|their)\s+cock\s+(?:crow\w*|pheasant|fight\w*|of\s+the\s+walk)|cock(?:-a-doodle-doo|\s+(?:crowed|crows|crowing))|weather\s*cock|cock(?:ed|s|ing)?\s+(?:the|his|her|a|its)\s+(?:gun|pistol|rifle|hammer|head|hat|ears?)|(?:blue|great|coal|marsh|long-tailed|willow|crested)\s+tits?|tit\s+for\s+tat|boob\s+tube|made\s+a\s+boob)\b/gi;
/** Insult nouns built on a sexual word: swearing at someone, not sexual talk. */
const INSULT_COMPOUND = /^(?:dick|cock|twat|cunt|prick|pussy)(?:head|face|wad|sucker|bag)?s?$/i;
/** Words before a noun used as an insult ("a dick", "you absolute prick"). */
const INSULT_ARTICLE = /\b(?:a|an|you|such\s+a|what\s+a|total|complete|absolute|fucking|massive|big|little|utter)\s+$/i;

const w = (source: string) => new RegExp(source, 'i');

const YOU = String.raw`(?:you|u|ya|yourself|your\s+\w+)`;
/** Words that strengthen an insult: "a complete idiot", "an absolute moron", "you stupid little clown". */
const INTENS = String.raw`(?:an?|such|so|just|really|truly|literally|the\s+(?:most|biggest|dumbest|worst|stupidest)|complete(?:ly)?|absolute(?:ly)?|total(?:ly)?|utter(?:ly)?|real|proper|right|fucking|fuckin|f\*+(?:ing|in)|freaking|effing|bloody|damn|goddamn|stupid|worthless|pathetic|useless|little|fat|big|massive|huge|giant|dumb|ugly|sad|brainless|clueless|gormless|miserable|disgusting|lazy|sorry)`;
const INSULT = String.raw`(?:idiots?|morons?|stupid|dumb(?:ass)?|worthless|pathetic|losers?|useless|ugly|disgusting|imbeciles?|failures?|waste\s+of\s+(?:space|air|oxygen|skin|time)|piece\s+of\s+(?:shit|garbage|trash|crap)|scum(?:bag)?|freaks?|trash|garbage|clowns?|jerks?|jackass|cretins?|dimwits?|halfwits?|nitwits?|numpty|twits?|fools?|buffoons?|dunces?|degenerates?|creeps?|pigs?|slobs?|disgrace|embarrassment|brain[\s-]?dead|retarded|dickheads?|dicks?|pricks?|twats?|cunts?|bitch(?:es)?|assholes?|arseholes?|bastards?|wankers?|tossers?)`;
/** End of an insult: not the start of a compound ("idiot-proof"). */
const END = String.raw`\b(?!-)`;
const GROUP = String.raw`(?:jews?|muslims?|christians?|blacks?|whites?|asians?|mexicans?|arabs?|immigrants?|refugees?|gays?|lesbians?|trans(?:gender)?\s*(?:people|women|men)?|women|girls|disabled\s+people|gypsies|roma|africans?|indians?|chinese)`;
/** Verbs of violence against a person that take the victim right after them. */
const KILL = String.raw`(?:kill|murder|shoot|stab|strangle|choke|hurt|harm|beat\s+up|bomb|slaughter|butcher|rape|torture|burn|kidnap|poison|behead|execute|maim|punch|gut|knife|run\s+over|beat\s+(?:the\s+(?:shit|crap|hell)\s+out\s+of))`;
/** Who a threat is against; "your X" only for people and homes, so "hurt your feelings" is not a threat. */
const VICTIM = String.raw`(?:you|u|ya|y'all|him|her|them|everyone|every\s*one|everybody|all\s+of\s+(?:you|them)|you\s+all|your\s+(?:(?:whole|entire|little|precious)\s+)?(?:family|kids?|children|son|daughter|wife|husband|mum|mom|mother|dad|father|parents|brother|sister|friends?|girlfriend|boyfriend|baby|dog|cat|pets?|people|face)|my\s+(?:wife|husband|boss|teacher|neighbou?rs?|family|classmates?|coworkers?|co-workers?|colleagues?|ex|mum|mom|mother|dad|father|parents|brother|sister|son|daughter|girlfriend|boyfriend|landlord|roommate|flatmate)|(?:that|this)\s+(?:guy|man|woman|girl|boy|bitch|bastard|kid|teacher|cop|officer|judge|politician|family|idiot|moron|person|dude|prick|asshole)|the\s+(?:whole\s+)?(?:class|school|office|teacher|principal|police|cops))`;
/** Places a bombing or shooting threat names. */
const PLACE = String.raw`(?:building|school|office|church|mosque|synagogue|temple|mall|concert|class(?:room)?|station|airport|stadium|arena|hospital|parliament|embassy|train|plane|bus|house|home|place|headquarters|hq|court(?:house)?|store|shop|supermarket|restaurant|club|bar|campus|college|university|venue|festival|parade|rally|city\s+hall|town\s+hall|factory|warehouse|bank|pub|cinema|theatre|theater|library)`;
/** "I will", "I'm going to", "we'll", "let's": the speaker intends to act. */
const INTENT = String.raw`(?:\bi\s*(?:'ll|will|shall|'m\s+(?:going\s+to|gonna|about\s+to|coming\s+to)|am\s+(?:going\s+to|gonna|about\s+to|coming\s+to)|m\s+(?:going\s+to|gonna)|want\s+to|wanna|gonna|plan\s+to|intend\s+to|'d\s+love\s+to|would\s+love\s+to|swear\s+i(?:'ll|\s+will)|promise\s+i(?:'ll|\s+will))|\bill(?=\s+(?:\w+\s+){0,6}?${KILL}\b)|\bim\s+(?:going\s+to|gonna)|\bwe\s*(?:'ll|will|shall|'re\s+(?:going\s+to|gonna)|are\s+(?:going\s+to|gonna)|gonna|should|must|need\s+to|have\s+to|want\s+to|wanna|plan\s+to)|\blet'?s|\blet\s+us)`;
/** Adverbs inside a threat ("I will fucking kill you"), or a first act joined by "and" ("I will find you and hurt you"). */
const THREAT_GAP = String.raw`(?:\s+(?:just|really|personally|fucking|fuckin|literally|actually|gladly|slowly|seriously|definitely|then|also|go|come))*(?:\s+(?:(?!(?:not|never|no|nobody|anyone|anybody|who|if|to|stop|let|won't|can't|don't)\b)[\w']+\s+){1,5}?(?:and|&)(?:\s+then)?)?`;
/** Questions that ask for a method. */
const HOW = String.raw`(?:how\s+(?:to|do\s+(?:i|you|we|people)|can\s+(?:i|you|we|one|someone)|could\s+(?:i|you|we|someone)|would\s+(?:i|you|we|someone|one)|should\s+(?:i|we)|much\s+\w+\s+(?:to|would|does\s+it\s+take\s+to))|(?:the\s+)?(?:best|easiest|quickest|simplest|surest|safest|cheapest)\s+way\s+to|ways\s+to|tips\s+(?:for|on|to)|step[\s-]+by[\s-]+step\s+(?:guide\s+)?(?:to|for|on)|instructions\s+(?:for|to|on)|teach\s+me\s+(?:how\s+)?to|tell\s+me\s+how\s+to|show\s+me\s+how\s+to|explain\s+how\s+to|help\s+me)`;
const WEAPON = String.raw`(?:(?:pipe|nail|car|letter|dirty|pressure[\s-]cooker|fertili[sz]er)\s+bombs?|bombs?|explosives|explosive\s+(?:device|vest|charge)s?|ieds?|molotov(?:\s+cocktails?)?|napalm|nerve\s+(?:agent|gas)|sarin|ricin|anthrax|mustard\s+gas|detonators?|grenades?|landmines?|ghost\s+guns?|untraceable\s+(?:guns?|firearms?|weapons?)|zip\s+guns?|booby[\s-]traps?|suicide\s+vests?|tatp|bio[\s-]?weapons?|chemical\s+weapons?)`;
/** Signs that harm is meant to stay hidden: the question is planning, not curiosity. */
const COVERT = String.raw`(?:without\s+(?:getting\s+caught|being\s+(?:caught|detected|noticed|seen)|anyone\s+(?:knowing|noticing|finding\s+out)|(?:leaving\s+)?(?:a\s+trace|any\s+(?:trace|evidence))|them\s+(?:knowing|noticing))|undetect(?:ed|able)(?:ly)?|untraceabl[ey]|(?:and\s+)?get\s+away\s+with\s+it|so\s+(?:it|that\s+it)\s+looks?\s+like\s+(?:an?\s+)?(?:accident|natural|suicide|heart\s+attack)|make\s+it\s+look\s+like\s+(?:an?\s+)?(?:accident|natural\s+causes|suicide|heart\s+attack)|(?:and\s+)?(?:hide|dispose\s+of|get\s+rid\s+of)\s+the\s+body|slowly\s+over\s+time)`;
const PERSON = String.raw`(?:someone|somebody|a\s+(?:person|man|woman|child|kid|baby|human)|people|him|her|them|my\s+\w+|your\s+\w+|a\s+\w+\s+(?:without|and)|the\s+(?:neighbou?r|boss|teacher|ex|wife|husband))`;
const HARM_VERB = String.raw`(?:kill|murder|poison|strangle|suffocate|smother|drown|drug|stab|shoot|hurt|kidnap|abduct|dose|choke)`;

// Minors, and the sexual terms that make content about them sexual. Strong terms are sexual on their
// own; weak ones ("sexy", "naked", "hot") only in a request for content (a story, pictures, a
// roleplay) or right before the minor ("sexy teen"), so "the kids ran around naked after the bath"
// and "my teenage son thinks the car is sexy" are not flagged.
const MINOR = String.raw`(?:child(?:ren)?|kids?|kiddies|minors?|underage|under-age|under\s+1[0-7]|toddlers?|infants?|little\s+(?:girls?|boys?)|young\s+(?:girls?|boys?)|school\s*girls?|school\s*boys?|pre-?teens?|tweens?|teens?|teenagers?|teenage|teeny|jailbait|loli(?:ta|s|con)?|shota(?:con)?|(?:middle|high)\s+schoolers?|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|[1-9]th)[\s-]+graders?|(?:[1-9]|1[0-7])[\s-]*(?:years?|yrs?)[\s-]*old|(?:[1-9]|1[0-7])\s*(?:yo|y\/o)|(?:girl|boy|child|kid)s?\s+(?:aged|of)\s+(?:[1-9]|1[0-7]))`;
const SEX_STRONG = String.raw`(?:sex|sexual(?:ly|i[sz]ed?)?|sexting|sext|porn\w*|erotic\w*|molest\w*|fondl\w*|grop(?:e|ed|ing)|aroused|arousing|orgasm\w*|masturbat\w*|genitals?|intercourse|lewd|horny|hentai|nsfw|explicit\s+(?:photos?|pictures?|pics|images?|videos?|content|stor(?:y|ies)|scenes?)|touch(?:ing)?\s+(?:them|him|her)\s+(?:sexually|inappropriately)|blowjobs?|handjobs?|rape\w*)`;
const SEX_WEAK = String.raw`(?:sexy|hot|steamy|naughty|kinky|seductive|sensual|dirty|intimate|nudes?|naked|nudity|undress\w*|strip(?:ping|tease)?|fuck\w*|bang|shag|smutty?|make\s+out|turn\s+(?:me|you)\s+on)`;
const CONTENT_REQUEST = w(String.raw`\b(?:stor(?:y|ies)|roleplay|role-play|rp|scenes?|fantas(?:y|ies|i[sz]e)|fanfic|fan\s+fiction|pics?|photos?|pictures?|images?|videos?|vids?|describe|write|imagine|pretend|send|show\s+me|tell\s+me|chat|act\s+(?:as|like)|play\s+(?:as|a)|poem)\b`);
const MINOR_RE = new RegExp(String.raw`\b${MINOR}\b`, 'gi');
const SEX_STRONG_RE = new RegExp(String.raw`\b${SEX_STRONG}\b`, 'gi');
const SEX_WEAK_RE = new RegExp(String.raw`\b${SEX_WEAK}\b`, 'gi');
const WEAK_THEN_MINOR = w(String.raw`\b${SEX_WEAK}\s+(?:(?:a|an|the|this|that|some|little|young|cute)\s+){0,2}${MINOR}\b`);
const PROTECTIVE = w(String.raw`\b(?:protect\w*|safeguard\w*|prevent\w*|report\w*|education|educational|sex\s+ed|abuse|abused|abuser|survivors?|victims?|charity|hotline|puberty|biology|curriculum|school\s+nurse|p(?:a)?ediatric\w*|consent|contracepti\w*|pregnan\w*|health|counsel\w*|therap\w*|police|court|convicted|sentenced|arrested|charged|warning\s+signs|grooming|research|stud(?:y|ies)|survey|statistics|how\s+(?:do|can|should)\s+(?:i|we|parents)\s+(?:talk|explain|teach)|talk\s+(?:to|with)\s+(?:my|our|your)\s+(?:kids?|children|teens?|teenagers?|son|daughter))\b`);

interface Rule {
  category: ModerationCategory;
  confidence: number;
  pattern: RegExp;
  /** The rule does not apply when this also matches near the match (context that makes it harmless). */
  unless?: RegExp;
}

// Contexts that make violent words harmless: computing, games and fiction, history, sport, cooking,
// and idioms ("shoot you an email", "burn you a CD", "kill them with kindness", "kill him off").
const HARMLESS_VIOLENCE = w(
  String.raw`\b(?:kill|killing|killed)\s+(?:the\s+|a\s+|this\s+|that\s+|all\s+)?(?:process(?:es)?|task|job|server|app|program|thread|session|tab|window|daemon|container|pod|bug|query|lights?|engine|music|time|it\s+on\s+stage|the\s+mood|weeds?|bacteria|germs|boss\s+(?:level|fight))\b|\b(?:battle|war|army|troops|soldiers|century|empire|historians?|novel|film|movie|game|gaming|minecraft|fortnite|respawn|level|npc|dungeon|character|chapter|plot|story|screenplay|script|scene|recipe|chess|match|pitch|league|tournament|season|playoffs?|karaoke|exam|quiz|debate|paintball|laser\s+tag)\b|\b(?:shoot|send|drop)\s+(?:you|u|him|her|them|me)\s+(?:an?\s+)?(?:quick\s+)?(?:e-?mail|message|text|line|note|dm|invite|link|reply|photo|pic)|\bburn\w*\s+(?:you|u|him|her|them|me)\s+(?:an?|some|the)\s+(?:cd|dvd|copy|discs?|mix)|\bwith\s+kindness\b|\b(?:kill|killing)\s+(?:him|her|them)\s+off\b`,
);
const MEDICAL = w(String.raw`\b(?:doctor|patient|symptoms?|diagnos\w*|clinic|nurse|medical|treatment|prescri\w*|exam(?:ination)?|gp|gynaecolog\w*|gynecolog\w*|urolog\w*|screening)\b`);
const FICTION_OR_NEWS = w(String.raw`\b(?:film|movie|novel|game|news|report\w*|history|historians?|story|book|character|plot|screenplay|episode|series|documentary|minecraft)\b`);

/** "Kill yourself" and its variants, said to someone. */
const KYS = String.raw`(?:kill\s+(?:your\s*self|ur\s*self|yourselves|urself)|unalive\s+(?:your\s*self|urself)|kys|hang\s+(?:your\s*self|urself)|neck\s+(?:your\s*self|urself)|off\s+(?:your\s*self|urself)|end\s+(?:your\s+(?:own\s+)?life|it\s+all\s+already)|slit\s+your\s+wrists?|drink\s+bleach|jump\s+off\s+a\s+(?:bridge|cliff|building|roof))`;

const RULES: Rule[] = [
  // Harassment: insults aimed at the person addressed.
  { category: 'harassment', confidence: 0.85, pattern: w(String.raw`\b${YOU}(?:\s+(?:are|r|re|is)|'re|'r)\s+(?:${INTENS}\s+)*${INSULT}${END}`) },
  { category: 'harassment', confidence: 0.8, pattern: w(String.raw`\b(?:you|u)(?:'re|\s+are)?\s+(?:${INTENS}\s+)*${INSULT}${END}`), unless: w(String.raw`\b(?:calls?|called|calling)\s+(?:you|u)\b|\bthank\s+you\b`) },
  { category: 'harassment', confidence: 0.8, pattern: w(String.raw`\bwhat\s+(?:${INTENS}\s+)*${INSULT}\s+(?:you\s+are|you're|u\s+r)${END}`) },
  { category: 'harassment', confidence: 0.8, pattern: w(String.raw`\b(?:shut\s+(?:the\s+fuck\s+|your\s+(?:fucking\s+)?(?:mouth|face)\s+)?up|stfu|gtfo|nobody\s+(?:likes|loves|cares\s+about|wants)\s+you|go\s+(?:to\s+hell|fuck\s+yourself|die)|get\s+lost,?\s+${INSULT}|die\s+in\s+a\s+(?:fire|hole|ditch))\b`) },
  // Dismissive swearing at the person addressed, "you" unsaid: "Fuck off", "piss off", "screw you".
  // Not the adjective ("a fuck-off big telly") and not reported speech ("he told me to fuck off").
  { category: 'harassment', confidence: 0.75, pattern: w(String.raw`(?<!\b(?:to|a|an|the)\s+)\b(?:fuck|f\*+k|fck|piss|sod|bugger|naff|jog|eff)\s+off\b(?!-)|\b(?:screw|fuck|f\*+k|fck)\s+(?:you|u|ya|off\s+and\s+die)\b(?!\s+over)|\bget\s+fucked\b|\beat\s+(?:shit|a\s+dick)\b`) },
  { category: 'harassment', confidence: 0.75, pattern: w(String.raw`\b(?:i\s+(?:hate|despise|loathe)\s+you|you\s+(?:disgust|sicken|repulse)\s+me|you\s+should\s+be\s+ashamed\s+of\s+(?:yourself|existing)|nobody\s+would\s+(?:miss|care\s+about)\s+you)\b`) },
  // Hate: a group described as less than human, or wished gone.
  { category: 'hate', confidence: 0.9, pattern: w(String.raw`\b(?:all\s+|those\s+|these\s+|the\s+)?${GROUP}\s+(?:are|is)\s+(?:all\s+)?(?:animals|vermin|subhuman|sub-human|parasites|rats|cockroaches|filth|inferior|a\s+disease|a\s+plague|evil|scum|trash)\b`) },
  { category: 'hate', confidence: 0.9, pattern: w(String.raw`\b${GROUP}\s+(?:should|must|need\s+to|deserve\s+to)\s+(?:all\s+)?(?:die|be\s+(?:killed|exterminated|wiped\s+out|gassed|deported|shot|banned\s+from\s+existing)|go\s+back\s+where\s+they\s+came\s+from)\b`) },
  { category: 'hate', confidence: 0.85, pattern: w(String.raw`\bi\s+(?:hate|despise|can't\s+stand|cannot\s+stand)\s+(?:all\s+)?${GROUP}\b`) },
  // Violence/threat (severe): the speaker intends to harm someone ("I will find you and hurt you",
  // "let's murder him") or a place ("I will bomb the building").
  { category: 'violence/threat', confidence: 0.92, pattern: w(String.raw`${INTENT}${THREAT_GAP}\s+${KILL}\s+${VICTIM}\b`), unless: HARMLESS_VIOLENCE },
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`${INTENT}${THREAT_GAP}\s+(?:bomb|fire-?bomb|blow\s+up|shoot\s+up|set\s+fire\s+to|burn\s+down|torch|attack)\s+(?:(?:the|your|my|our|their|this|that|a|an|his|her)\s+)?(?:[\w']+\s+)?${PLACE}\b`), unless: HARMLESS_VIOLENCE },
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`${INTENT}${THREAT_GAP}\s+(?:beat|punch|kick)\s+${VICTIM}\s+(?:up|to\s+death|senseless|black\s+and\s+blue|to\s+a\s+pulp)\b|${INTENT}${THREAT_GAP}\s+(?:break|snap|slit|cut)\s+(?:your|his|her|their)\s+(?:legs?|necks?|arms?|throats?|jaw|face)\b`) },
  { category: 'violence/threat', confidence: 0.85, pattern: w(String.raw`\b(?:i\s+know\s+where\s+(?:you|your\s+\w+)\s+(?:live|lives|work|works|sleep|sleeps|go\s+to\s+school)|you(?:'re|\s+are)\s+(?:going\s+to\s+)?(?:dead|die)\s+(?:tonight|tomorrow|soon)|you(?:'re|\s+are)\s+dead\s+meat|watch\s+your\s+back|you\s+won't\s+live\s+(?:to|through)|sleep\s+with\s+one\s+eye\s+open|i(?:'ll|\s+will)\s+make\s+(?:you|him|her|them)\s+(?:suffer|bleed))\b`) },
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`\b(?:shoot\s+up|bomb|blow\s+up)\s+(?:the|my|a|our)\s+(?:school|office|church|mosque|synagogue|mall|concert|class)\b`), unless: FICTION_OR_NEWS },
  // Instructions for weapons or for harming someone covertly: the counterpart of self-harm
  // instructions, severe in the same way (never sent to the model; a reply giving them is withheld).
  // The scheme has no violence/instructions type, so they go under violence/threat, its severe type.
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`\b${HOW}\s+(?:make|build|assemble|construct|craft|create|cook|mix|rig|produce|3d[\s-]?print|get|buy|obtain)\s+(?:(?:a|an|some|my\s+own|our\s+own|homemade|home-made|working|simple|small|powerful)\s+)*${WEAPON}\b(?![\s-]*(?:cake|shelter|proof|squad|diggity|disposal|threat|drill|emoji|dog|pop))|\b(?:pipe\s+bomb|nail\s+bomb|car\s+bomb|molotov|napalm|nerve\s+agent|ricin|sarin|tatp|ied)\s+(?:instructions|recipe|tutorial|blueprints?|guide|plans|schematics?)\b`), unless: w(String.raw`\b(?:bath|smoke|glitter|seed|photo|flavou?r|calorie|stink|paint)\s+bombs?\b`) },
  { category: 'violence/threat', confidence: 0.9, pattern: w(String.raw`\b${HOW}\s+${HARM_VERB}\s+${PERSON}\b[^.?!\n]{0,60}?${COVERT}|\b${HOW}\s+(?:get\s+away\s+with\s+(?:murder|killing\s+${PERSON})|(?:hide|dispose\s+of|get\s+rid\s+of)\s+(?:a|the)\s+(?:dead\s+)?body)|\b(?:undetectable|untraceable|tasteless)\s+poisons?\s+(?:to|for|that)\b`), unless: w(String.raw`\b(?:novel|story|character|plot|book|screenplay|script|writing|episode|series|show|season|netflix|crime\s+fiction|mystery|murder\s+mystery|game)\b`) },
  { category: 'violence', confidence: 0.8, pattern: w(String.raw`\b${HOW}\s+(?:kill|murder|poison|strangle|suffocate|smother)\s+(?:someone|somebody|a\s+person|my\s+\w+|him|her|people)\b`), unless: HARMLESS_VIOLENCE },
  { category: 'violence', confidence: 0.7, pattern: w(String.raw`\b(?:i\s+(?:want|wish|hope)\s+(?:to\s+see\s+)?(?:you|him|her|them)\s+(?:to\s+)?(?:die|suffer|bleed|get\s+(?:hurt|killed|shot)))\b`) },
  // Sexual: explicit requests and descriptions.
  { category: 'sexual', confidence: 0.8, pattern: w(String.raw`\b(?:send\s+(?:me\s+)?(?:nudes|nude\s+(?:pics|photos)|naked\s+(?:pics|photos))|have\s+sex\s+with\s+(?:me|you)|(?:talk|get)\s+dirty|sext(?:ing)?\s+(?:me|with)|take\s+(?:off\s+)?(?:your|my)\s+clothes\s+off|make\s+me\s+(?:cum|come|horny|wet|hard)|suck\s+my|touch\s+yourself)\b`) },
  { category: 'sexual', confidence: 0.8, pattern: w(String.raw`\b(?:i\s+(?:want|wanna|would\s+love|'d\s+love|need)\s+to\s+(?:fuck|bang|shag|screw|have\s+sex\s+with)\s+(?:you|u|ya)\b(?!\s+over)|let'?s\s+(?:fuck|bang|shag|have\s+sex)\b|(?:fuck|bang)\s+me\s+(?:hard|now|baby|daddy)\b)`) },
  { category: 'sexual', confidence: 0.75, pattern: w(String.raw`\b(?:describe|tell\s+me\s+about|write)\b[\s\S]{0,40}\b(?:sex\s+scene|sexual\s+fantas\w+|(?:your|our)\s+(?:naked\s+body|orgasm))\b`) },
  { category: 'sexual', confidence: 0.7, pattern: w(String.raw`\b(?:tell|write|give|send|show|describe|narrate|make|read)\b(?:\s+(?:me|us))?[\s\S]{0,30}?\b(?:sexy|erotic|steamy|dirty|naughty|smutty|smut|x-rated|nsfw|kinky|raunchy|horny|sexual|explicit|lewd)\s+(?:(?:romance|love|bedroom|shower|sex)\s+)?(?:stor(?:y|ies)|scenes?|roleplay|role-play|rp|fantas(?:y|ies)|fanfic|fan\s+fiction|pics?|photos?|pictures?|images?|videos?|chat|poem|messages?|texts?)\b`) },
  // Self-harm: instructions (severe) and wishes (flagged, answered with care by the model).
  { category: 'self-harm/instructions', confidence: 0.95, pattern: w(String.raw`\b(?:how\s+(?:to|do\s+i|can\s+i|should\s+i)|best\s+way\s+to|easiest\s+way\s+to|painless\s+way\s+to|quickest\s+way\s+to)\s+(?:kill\s+myself|commit\s+suicide|end\s+my\s+(?:own\s+)?life|hang\s+myself|overdose|cut\s+(?:myself|my\s+wrists)|slit\s+my\s+wrists|die\s+(?:painlessly|quickly|in\s+my\s+sleep))\b`) },
  { category: 'self-harm/instructions', confidence: 0.9, pattern: w(String.raw`\bhow\s+many\s+(?:pills|tablets|paracetamol|sleeping\s+pills)\s+(?:does\s+it\s+take\s+)?(?:to|would|will|do\s+i\s+need\s+to)\s+(?:die|kill\s+(?:me|myself|you)|overdose)\b`) },
  { category: 'self-harm', confidence: 0.85, pattern: w(String.raw`\bi\s*(?:want|wanna|am\s+going|'m\s+going|m\s+going|'m\s+gonna|am\s+gonna|plan|intend|am\s+ready|'m\s+ready)\s+(?:to\s+)?(?:kill\s+myself|kms|unalive\s+myself|die|end\s+(?:it\s+all|my\s+life|everything)|hurt\s+myself|cut\s+myself|disappear\s+forever)\b`) },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\b(?:i(?:'ve|\s+have)\s+been\s+(?:cutting|hurting|burning)\s+myself|i\s+(?:don't|do\s+not)\s+want\s+to\s+(?:live|be\s+alive)(?:\s+anymore)?|life\s+is(?:n't|\s+not)\s+worth\s+living|better\s+off\s+dead|no\s+reason\s+to\s+live)\b`) },
  // Telling someone to kill themselves: imperative, wished or suggested ("Kill yourself.", "why don't
  // you just kill yourself"). Not a warning or a reassurance ("don't kill yourself over it", "you'll
  // kill yourself on that ladder") and not a game ("how do I kill myself in Minecraft to respawn").
  {
    category: 'self-harm',
    confidence: 0.85,
    pattern: w(String.raw`(?<!\b(?:don't|do\s+not|dont|never|not|no\s+need\s+to|could|might|would|'d|almost|nearly|'ll|will|won't|gonna|going\s+to|trying\s+to|if\s+you|before\s+you|to)\s+(?:go\s+|just\s+|and\s+)?)\b${KYS}\b(?!\s+(?:over|trying|for|working|doing|with\s+(?:work|that|this)|laughing|on\s+(?:that|the|this|those)|if|when|in\s+(?:minecraft|the\s+game)))`),
    unless: w(String.raw`\b(?:minecraft|respawn|video\s+game|game|level|npc|character|novel|story)\b`),
  },
];

/** Sexual content involving minors: a strong sexual term near a minor, or a weak one in a request for content. */
function sexualMinors(text: string): boolean {
  MINOR_RE.lastIndex = 0;
  const minors: number[] = [];
  for (let m = MINOR_RE.exec(text); m; m = MINOR_RE.exec(text)) minors.push(m.index);
  if (minors.length === 0) return false;
  const near = (re: RegExp, span: number) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const at = m.index;
      if (minors.some((x) => Math.abs(x - at) <= span)) return at;
    }
    return -1;
  };
  const at = near(SEX_STRONG_RE, 90);
  const weakAt = at >= 0 ? -1 : WEAK_THEN_MINOR.test(text) ? 0 : CONTENT_REQUEST.test(text) ? near(SEX_WEAK_RE, 90) : -1;
  const hit = at >= 0 ? at : weakAt;
  if (hit < 0) return false;
  // Protecting, teaching or reporting, near the match, is not sexual content.
  const around = text.slice(Math.max(0, hit - 150), hit + 150);
  return !PROTECTIVE.test(around);
}

/** Obfuscated profanity and slurs, through `obscenity`. */
function profanityFindings(original: string, normalised: string): { category: ModerationCategory; confidence: number }[] {
  const found: { category: ModerationCategory; confidence: number }[] = [];
  const text = original.replace(HARMLESS_PROFANITY, (s) => ' '.repeat(s.length));
  const matches = profanity.getAllMatches(text);
  if (matches.length === 0) return found;
  const words = matches.map((m) => {
    const word = englishDataset.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '';
    // The whole word around the match: "dickhead" is an insult, not sexual talk.
    let a = m.startIndex;
    let b = m.endIndex + 1;
    while (a > 0 && /[a-z]/i.test(text[a - 1]!)) a--;
    while (b < text.length && /[a-z]/i.test(text[b]!)) b++;
    const whole = text.slice(a, b);
    // ... and "a dick", "you prick", "such a twat" are insults too.
    const insultNoun = INSULT_COMPOUND.test(whole) && (whole.toLowerCase() !== word || INSULT_ARTICLE.test(text.slice(Math.max(0, a - 24), a)));
    return SEXUAL_WORDS.has(word) && insultNoun ? `${word}-insult` : word;
  });
  const aimed = new RegExp(String.raw`\b${YOU}\b`, 'i').test(normalised);
  if (words.some((x) => SLURS.has(x))) found.push({ category: 'hate', confidence: aimed ? 0.9 : 0.8 });
  const sexual = words.filter((x) => SEXUAL_WORDS.has(x));
  if (sexual.length > 0 && !MEDICAL.test(text)) found.push({ category: 'sexual', confidence: Math.min(0.85, 0.45 + 0.2 * sexual.length) });
  // Swearing aimed at someone is harassment; swearing alone is not flagged.
  const swearing = words.filter((x) => !SLURS.has(x) && !SEXUAL_WORDS.has(x));
  if (aimed && swearing.length > 0) found.push({ category: 'harassment', confidence: Math.min(0.85, 0.5 + 0.15 * swearing.length) });
  return found;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** One spelling for every rule: straight apostrophes, no invisible characters, "k1ll" read as "kill". */
export function normaliseForModeration(text: string): string {
  let s = text.replace(/[\u2018\u2019\u02bc\u0060\u00b4\u2032]/g, "'").replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '');
  if (/[a-z][0-9@$]|[0-9@$][a-z]/i.test(s)) {
    // Words that mix letters with digits; "12yo", "3pm", "2nd" and "5km" are left alone.
    s = s.replace(/[a-z0-9@$]*[a-z][a-z0-9@$]*/gi, (tok) => (/[0-9@$]/.test(tok) && !/^\d+[a-z]{0,3}$/i.test(tok) ? tok.replace(/[0-9@$]/g, (c) => LEET[c] ?? c) : tok));
  }
  return s;
}

export interface OfflineClassifierOptions {
  /** Categories at or above this confidence are reported (MODERATION_THRESHOLD). */
  threshold: number;
}

export function classifyOffline(text: string, opts: OfflineClassifierOptions): ModerationResult {
  const original = text.length > 20_000 ? text.slice(0, 20_000) : text;
  const sample = normaliseForModeration(original);
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
  if (sexualMinors(sample)) note('sexual/minors', 0.95);
  for (const f of profanityFindings(original, sample)) note(f.category, f.confidence);
  const all = [...best.entries()].map(([type, confidence]) => ({ type, confidence })).sort((a, b) => b.confidence - a.confidence);
  return { categories: all.filter((c) => c.confidence >= opts.threshold), confidence: all[0]?.confidence ?? 0 };
}

export function createOfflineModerator(opts: OfflineClassifierOptions) {
  return { name: 'offline', classify: async (text: string) => classifyOffline(text, opts) };
}
