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
  /** Nor when the words just before the match, in its sentence, end with this (a refusal, a disclosure). */
  notAfter?: RegExp;
  /** Every match is tried, not only the first: a harmless context near one match does not excuse another. */
  every?: boolean;
  /** Cheap tests of words the pattern cannot match without; the pattern is not run unless all pass. */
  requires?: RegExp[];
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

// Self-harm methods. Asking for one is severe (self-harm/instructions): a frame that asks for a
// method ("how do I", "ways to", "step by step instructions to", "what can I take to", "where should
// I", "teach me how to") joined to an act against oneself ("kill myself", "end my life", "overdose",
// "die painlessly"), or a question about a dose, a height, a place to cut or the time it takes that
// only someone planning it asks ("how many pills do I need to take to overdose", "how long does it
// take to bleed out"). In the first person it is a request whatever the context but a game; said of
// someone, or of no one ("commit suicide", "the most painless way to die"), it may also be a
// novel's plot, history, statistics, someone learning to help or a worried parent, and those
// contexts near it keep it out. Pharmacology without a death in view ("the maximum dose", "how many
// can I safely take", "is an overdose") is not a method, nor is a refusal ("I can't tell you how to
// ...") or a disclosure ("I keep thinking about ways to kill myself"), which the wish rules flag.
const ME = String.raw`(?:myself|my\s*self|meself)`;
const ONESELF = String.raw`(?:oneself|one's\s*self|yourself|your\s*self|urself|themselves|themself|himself|herself|ourselves)`;
const ONES = String.raw`(?:one's|your|ur|their|his|her|our)`;
/** Acts against oneself, with its reflexive ("kill myself", "end my life", "slit my wrists"). */
const selfActs = (self: string, own: string) =>
  String.raw`(?:(?:(?:kill|off|end|top|hang|neck|poison|drown|smother|gas|stab|harm|hurt|cut|burn|shoot)(?:ing|s)?|(?:unaliv|suffocat|electrocut|strangl|asphyxiat|overdos|starv|injur)(?:e|es|ing)|gass?ing|stabbing|cutting)\s+${self}|do(?:ing)?\s+${self}\s+in|(?:end(?:ing)?|tak(?:e|ing))\s+${own}\s+(?:own\s+)?life\b(?!\s+(?:as\s+an?\b|insurance|assurance|policy|cover|savings|story|stories|coach|plan|support|sentence|cycle|lessons?|back|in\s+(?:minecraft|the\s+game)))|(?:slit(?:ting)?|cut(?:ting)?|slash(?:ing)?|open(?:ing)?)\s+${own}\s+(?:wrists?|veins?|arter(?:y|ies)|throat|forearms?|arms?|thighs?)|throw(?:ing)?\s+${self}\s+(?:off|in\s+front\s+of|under)\b)`;
/** Idioms and accidents after the act: "killing myself laughing", "cut myself a fringe", "burn myself out". */
const SELF_IDIOM = String.raw`(?!\s+(?:less\b|laughing|working|trying|doing|studying|running|over\b|for\s+(?:a|an|the|this|that|it|nothing|them|him|her|you)\b|a\b|an\b|some\b|off\b|free\b|loose\b|short\b|slack\b|out\b|up\b|in\s+on\b|in\s+the\s+foot|upside\s+down|like\s+that|so\s+bad(?:ly)?|by\s+(?:accident|mistake)|on\s+(?:a|the|that|this|those|my)\s+(?:rings?|bar|hook|wall|ladder|stairs|knife|oven|stove|pan|grater|mandoline)|with\s+(?:a|my|the)\s+(?:camera|dslr|phone|iphone|remote|timer|tripod|self-?timer)|in\s+(?:work|study|studies|books|coffee|tea|music|chores|debt|paperwork)))`;
const ACT_ME = String.raw`(?:${selfActs(ME, 'my')}|kms)${SELF_IDIOM}`;
const ACT_SOMEONE = String.raw`${selfActs(ONESELF, ONES)}${SELF_IDIOM}`;
/** Suicide named, but not its prevention, its statistics or a bomber. */
const SUICIDE = String.raw`suicide\b(?!\s+(?:prevention|awareness|hotlines?|helplines?|lines?|lifeline|risks?|rates?|watch|squad|notes?|bomb\w*|vests?|attacks?|missions?|doors?|survivors?|loss|statistics|stats|research|crisis|pacts?|cases?|ideation|thoughts?|attempts?|victims?|among|is\b|was\b))`;
/** Acts whose subject the question gives ("how do I overdose", "ways to commit suicide", "how can someone die painlessly"). */
const ACT_BARE = String.raw`(?:commit(?:ting)?\s+${SUICIDE}|(?:do|doing|perform|carry\s+out)\s+(?:a\s+)?(?:\w+\s+)?${SUICIDE}|${SUICIDE}|self[\s-]?harm(?:ing)?\b(?!\s+(?:recovery|awareness|prevention|support|urges?|scars?|wounds?|behaviou?rs?|thoughts?|history|risk|services?|among|is\b))|(?:overdos(?:e|ing)|od(?:ing)?)\b(?!\s+(?:risk|symptoms|signs|prevention|deaths|crisis|reversal))|(?:die|dying)\s+(?:painlessly|quickly|quick|fast|peacefully|quietly|instantly|gently|for\s+sure|without\s+(?:any\s+)?(?:pain|suffering|feeling\s+(?:it|anything)|anyone\s+(?:knowing|noticing))|in\s+(?:my|one's|your|their|his|her)\s+sleep|tonight|today|right\s+now)|(?:(?:go\s+to\s+sleep|fall\s+asleep|sleep)\s+and\s+)?never\s+wake\s+up|(?:jump(?:ing)?|step(?:ping)?)\s+in\s+front\s+of\s+(?:a|an|the)\s+(?:\w+\s+)?(?:train|bus|truck|lorry|car|tube|subway|tram)|(?:make|making|build|building|use|using)\s+(?:an?\s+)?exit\s+bags?|bleed(?:ing)?\s+(?:out|to\s+death)\b(?!\s+(?:a|an|the|your|my|brakes?|radiators?)\b)|end(?:ing)?\s+it\s+all|(?:tie|tying|make|making)\s+(?:a\s+)?noose\b(?=[^.?!\n]{0,40}\b(?:hang|myself|yourself|neck|die|suicide|weight))|cut(?:ting)?\s+(?:(?:deep(?:er|ly)?|enough|deep\s+enough)\s+)?(?:to|so\s+(?:that\s+)?(?:i|you)\s+(?:will\s+)?)\s*(?:die|bleed\s+(?:out|to\s+death)|kill\s+(?:myself|yourself)|hit\s+an?\s+(?:vein|artery)))`;
/** Words a method request may have between its frame and its act ("how do I just", "how would I go about"). */
const SH_FILL = String.raw`(?:\s+(?:just|simply|actually|really|finally|quickly|quietly|painlessly|peacefully|safely|successfully|properly|effectively|efficiently|best|usually|normally|typically|even|go\s+about|go\s+ahead\s+and|manage\s+to|be\s+able\s+to|try\s+to|attempt\s+to|bring\s+myself\s+to))*`;
/** A means named before the act: "tie a noose to", "get a gun to", "use my insulin to". */
const SH_MEANS = String.raw`(?:\s+(?:get|buy|find|use|take|mix|tie|make|obtain|order|inject|swallow|drink|rig|set\s+up)\s+(?:[\w'-]+\s+){1,3}?(?:to|in\s+order\s+to))?`;
const WAY_ADJ = String.raw`(?:best|better|good|easiest|easier|easy|quickest|quicker|quick|fastest|faster|fast|simplest|simple|surest|sure|sure-?fire|fool-?proof|safest|safe|cheapest|cheap|cleanest|clean|quietest|quiet|gentlest|gentle|nicest|most\s+[\w-]+|least\s+[\w-]+|painless|pain-free|peaceful|humane|reliable|effective|efficient|certain|guaranteed|lethal|deadly|possible|different|other|real|proper|right|new|legit|actual|any|some|more|few|several|common|top|\d+)`;
/** Ways to die asked for by how little they hurt, how fast or how surely ("the most painless way to die"); not "the best way to die" or "dumb ways to die". */
const DIE_ADJ = String.raw`(?:painless|pain-?free|easiest|easy|easier|quickest|quick|quicker|fastest|fast|faster|simplest|simple|surest|sure|sure-?fire|fool-?proof|peaceful|gentle|gentlest|humane|reliable|effective|efficient|certain|guaranteed|cleanest|quietest|cheapest|(?:most|more)\s+(?:painless|peaceful|humane|reliable|effective|efficient|certain|comfortable|gentle|quick|pain-?free)|(?:least|less)\s+(?:painful|violent|messy|traumatic|scary|bloody|slow))`;
/** "Go" means dying only after these ("the most painless way to go"), not "the quickest way to go". */
const GO_ADJ = String.raw`(?:painless|pain-?free|peaceful|gentle|gentlest|humane|(?:most|more)\s+(?:painless|peaceful|humane|gentle|pain-?free)|(?:least|less)\s+(?:painful|violent|messy|traumatic))`;
const WAY_NOUN = String.raw`(?:way|method|means|option|technique|approach|plan|recipe)`;
const WAY_THING = String.raw`(?:drugs?|pills?|meds|medications?|medicines?|poisons?|chemicals?|gas|places?|spots?|locations?|bridges?|buildings?|knots?|ropes?|guns?|knife|knives|blades?|razors?)`;
/** The frames that ask for a method. */
const SH_ASK = String.raw`(?:how\s+(?:to|(?:do|can|would|should|might|does|could)\s+(?:i|we|one|someone|somebody|a\s+person|people|anyone|u|you|a\s+(?:man|woman|girl|boy|teen(?:ager)?|kid|human))|(?:i|someone|somebody|a\s+person|one|people|you)\s+(?:can|could|would|should|might|am\s+supposed\s+to))|(?:(?:the|a|an|any|some|other|more|few|several|\d+)\s+)?(?:${WAY_ADJ}\s+){0,3}(?:ways|methods|options|techniques|tricks|approaches)|(?:the|a|an|any|some|one|another|other|which|what|what's|whats)\s+(?:${WAY_ADJ}\s+){0,3}${WAY_NOUN}|(?:(?:the|a|an)\s+)?(?:${WAY_ADJ}\s+){1,3}(?:${WAY_NOUN}|${WAY_THING})|(?:instructions?|steps?|step[\s-]+by[\s-]+step(?:\s+(?:guide|instructions?|plan|process|tutorial))?|guide|guidance|tutorial|walk-?through|advice|tips|pointers|directions|procedure|protocol|manual|how-?to)|(?:teach|tell|show|explain\s+to|help|advise|instruct|walk|coach)\s+(?:me|us)(?:\s+(?:through(?:\s+how\s+to)?|on\s+how\s+to|how\s+to|to))?|(?:what|which)\s+(?:[\w-]+\s+){0,4}?(?:can|could|should|would|do|must)\s+(?:i|someone|somebody|a\s+person|one|you)(?:\s+(?:use|take|do|buy|get|drink|swallow|mix|inject|eat|combine))?(?:\s+(?:together|at\s+once|in\s+one\s+go))?|where\s+(?:on\s+(?:my|your|the)\s+\w+\s+)?(?:to|(?:can|do|could|should|would|might)\s+(?:i|someone|one|you|people)|is\s+(?:the\s+|a\s+)?(?:\w+\s+)?(?:place|spot)\s+to)(?:\s+(?:go(?:\s+to)?|(?:buy|get|find|order)(?:\s+[\w-]+){1,3}?\s+(?:to|for)))?|(?:would|will|does|is)\s+it\s+(?:hurt|be\s+painful|painful)\s+(?:to|if\s+(?:i|you)|when\s+(?:i|you)))(?:\s+(?:for|to\s+help)\s+(?:me|someone|somebody|a\s+person|people|one|you|a\s+(?:man|woman|teen(?:ager)?|kid))(?=\s+to\b))?(?:\s+(?:to|of|for|on|about|with|in\s+order\s+to)(?:\s+how\s+to)?)?${SH_FILL}${SH_MEANS}`;
/** Frames asked in the first person ("how do I", "what can I take", "help me"): any act is theirs. */
const SH_ASK_ME = String.raw`(?:how\s+(?:do|can|would|should|might|could)\s+i|(?:what|which)\s+(?:[\w-]+\s+){0,4}?(?:can|could|should|would|do|must)\s+i(?:\s+(?:use|take|do|buy|get|drink|swallow|mix|inject|eat|combine))?|where\s+(?:on\s+(?:my|your|the)\s+\w+\s+)?(?:can|do|could|should|would|might)\s+i|(?:teach|tell|show|help|walk)\s+me|(?:ways?|methods?|means)\s+for\s+me)(?:\s+(?:to|in\s+order\s+to)(?:\s+how\s+to)?)?${SH_FILL}${SH_MEANS}`;
/** Medicines and poisons a dose question names. */
const DRUG = String.raw`(?:pills?|tablets?|capsules?|caps|meds|medications?|medicines?|drugs?|paracetamol|acetaminophen|tylenol(?:\s+pm)?|panadol|ibuprofen|advil|nurofen|aspirin|insulin|antidepressants?|sertraline|zoloft|fluoxetine|prozac|citalopram|escitalopram|lexapro|amitriptyline|lithium|xanax|alprazolam|valium|diazepam|lorazepam|ativan|clonazepam|klonopin|benzos?|benzodiazepines?|opioids?|opiates?|oxy(?:codone|contin|s)?|morphine|fentanyl|heroin|codeine|tramadol|methadone|melatonin|benadryl|diphenhydramine|antihistamines?|quetiapine|seroquel|ambien|zolpidem|barbiturates?|pentobarbital|nembutal|digoxin|propranolol|warfarin|sleeping\s+(?:pills?|tablets?|meds)|pain\s*killers?|bleach|antifreeze|rat\s+poison|cyanide|mg|milligrams?|grams?|g|doses?|units)`;
/** A death the dose is asked for: one's own, someone's, or plainly dying or overdosing. */
const DOSE_DEATH = String.raw`(?:die|kill\s+(?:me|myself|someone|somebody|a\s+person|an\s+adult|a\s+grown\s+(?:man|woman))|kills?\s+me|end\s+(?:it(?:\s+all)?|my\s+(?:own\s+)?life)|overdose|od|never\s+wake\s+up|not\s+wake\s+up(?:\s+again)?|stop\s+my\s+heart|be\s+(?:fatal|lethal|deadly|enough)\s+for\s+(?:me|someone\s+(?:my|of\s+my)\s+(?:weight|size|age)))\b`;
/** Methods named in a question about how long it takes or which hurts less. */
const METHOD_N = String.raw`(?:hang(?:ing|ed)?|a\s+noose|overdos\w*|an?\s+overdose|od(?:ing)?|slit\w*\s+(?:\w+\s+)?wrists?|cut\w*\s+(?:\w+\s+)?(?:wrists?|veins?|throat)|(?:a\s+)?cut\s+wrist|bleed(?:ing)?\s+out|(?:sleeping\s+)?pills|tablets|paracetamol|acetaminophen|tylenol|insulin|carbon\s+monoxide|co\s+poisoning|(?:car\s+)?exhaust(?:\s+fumes)?|helium|charcoal|an?\s+exit\s+bag|suffocat\w*|asphyxia\w*|jump\w*|a\s+fall\s+from|(?:a\s+)?gunshot|shooting\s+(?:myself|yourself|oneself))`;
const METHOD_C = String.raw`(?:hang(?:ing)?(?:\s+(?:myself|yourself|oneself))?|jump(?:ing)?(?:\s+(?:off|from)\s+(?:a|the)\s+\w+)?|overdose|shoot(?:ing)?\s+(?:myself|yourself)|overdos(?:e|ing)|an\s+overdose|od(?:ing)?|(?:sleeping\s+)?pills|drowning|cutting|slitting\s+(?:my\s+)?wrists|bleeding\s+out|jumping|a\s+gun|shooting\s+myself|carbon\s+monoxide|helium|exit\s+bags?|suffocation|gassing|paracetamol|insulin|the\s+train|a\s+train)`;
const COMPARE = String.raw`(?:painless|painful|pain|hurts?|hurt\s+less|quick(?:er|est)?|fast(?:er|est)?|reliabl[ey]|more\s+(?:reliable|effective|certain|peaceful|lethal)|sure(?:r|st)?|peaceful|lethal|deadly|better|best|worse)`;
/** Refusals and disclosures just before a method request: not a request. */
const SH_NOT_REQUEST = w(String.raw`(?:\b(?:i|we)(?:'m|'d|'ll|\s+am|\s+are|\s+would|\s+will|\s+really|\s+just|\s+simply|\s+do|\s+must|\s+have\s+to)*\s+(?:can't|cannot|can\s+not|won't|will\s+not|wouldn't|would\s+not|shouldn't|should\s+not|unable\s+to|not\s+able\s+to|not\s+going\s+to|refuse\s+to|never|not\s+(?:comfortable|willing|allowed|permitted)\s+to)\s+(?:[\w']+\s+){0,3}?(?:tell|give|share|provide|help|explain|describe|offer|list|suggest|recommend|discuss|answer|assist|advi[sc]e|teach|show|walk|say|send)\w*(?:\s+(?:you|anyone|them|him|her|with|on|about|any|information|details|instructions)){0,3}|\bi(?:'ve|'m|'d|\s+have|\s+am|\s+was|\s+had)?(?:\s+(?:been|just|already|always|often|constantly|secretly|started|start|keep|kept|even|also|sometimes|ever|don't|do\s+not|didn't|did\s+not|still))*\s+(?:thinking|thought|think|dream\w*|fantasi[sz]\w*|obsess\w*|research\w*|read\w*|looked|looking|look|search\w*|googl\w*|imagin\w*|plann?\w*|know|knew|figured|worked|found|learn\w*|decided|talk\w*|writ\w*|wrote)(?:\s+(?:about|of|up|into|for|at|on|out))?(?:\s+[\w']+){0,2}|\b(?:told|asked|showed)\s+(?:me|him|her|them|us)(?:\s+[\w']+){0,2}|\bno(?:\s+other)?)$`);
/** Words without which no self-harm rule can match: the rules are not run on text without them. */
const SH_ACT_CUE = /\b(?:myself|my\s*self|meself|oneself|one's\s*self|yourself|your\s*self|urself|themsel|himself|herself|ourselves|life\b|suicid|self[\s-]?harm|overdos|od(?:ing)?\b|kms\b|die\b|dying\b|wake\s+up|front\s+of|exit\s+bag|bleed|it\s+all\b|noose|cut|wrist|vein|arter|throat|forearm|arm|thigh)/i;
/** An act against oneself somewhere in the text: the method-request rules need one. */
const SH_ACT = w(String.raw`\b(?:${ACT_ME}|${ACT_SOMEONE}|${ACT_BARE})`);
const SH_DRUG = w(String.raw`\b${DRUG}\b`);
const SH_DOSE_DEATH = w(String.raw`\b(?:${DOSE_DEATH}|end\s+(?:me|myself)\b)`);
const SH_ME_CUE = /\b(?:myself|my\s*self|meself|life\b|wrists?|throat)/i;
/** Contexts that make a dose question harmless: an accident, a child or a pet, study. */
const SH_DOSE_HARMLESS = w(String.raw`\b(?:swallowed|by\s+(?:accident|mistake)|accidental\w*|toddler|child|baby|dog|cat|pet|vet|poison\s+control|pharmacology|toxicology|exam|textbook|lecture)\b`);
/** Contexts that make a method said of someone or no one harmless: games, fiction, history, prevention, study, medicine. */
const SH_GAME = String.raw`\b(?:minecraft|roblox|fortnite|terraria|skyrim|the\s+sims|elden\s+ring|dark\s+souls|zelda|gta|respawn\w*|spawn\s*point|video\s*games?|in[\s-]+game|the\s+game|this\s+game|speedrun\w*|hardcore\s+mode|npcs?|save\s+point|checkpoint)\b`;
const SH_HARMLESS = w(String.raw`${SH_GAME}|\b(?:novel|story|stories|book|character|plot|screenplay|script|episode|series|film|movie|documentary|play|poem|poet|song|lyrics|fiction|writing|writer|author|chapter|scene|history|historians?|ancient|romans?|samurai|century|execution|executed|prevention|prevent\w*|warning\s+signs|signs\s+(?:that|of)|hotline|helpline|crisis\s+line|lifeline|samaritans|988|help\s+(?:someone|a\s+friend|them|him|her)|talk\s+to\s+(?:someone|a\s+friend|them|him|her)|training|course|research|study|studies|statistics|stats|data|common|survey|pharmacology|toxicology|exam|lecture|textbook|nurse|doctor|paramedic|first\s+aid|emergency\s+room|poison\s+control|accident\w*|by\s+mistake|swallowed|toddler|dog|cat|pet|vet|deer|hunt\w*|animals?|livestock|slaughter\w*|pigs?|cows?|sheep|lambs?|chickens?|fish)\b|\bif\s+(?:you|someone|anyone)(?:'re|\s+are|\s+have\s+been|'ve\s+been)?\s+(?:\w+\s+)?(?:looking|thinking|searching|wondering|considering|asking|feeling)\b`);

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
  // A method asked for in the first person: "how do I kill myself", "step by step instructions to
  // end my life", "what can I take to never wake up", "where should I cut to bleed out".
  {
    category: 'self-harm/instructions',
    confidence: 0.95,
    pattern: w(String.raw`\b(?:${SH_ASK}\s+${ACT_ME}|${SH_ASK_ME}\s+(?:${ACT_BARE}|${ACT_SOMEONE}))`),
    unless: w(SH_GAME),
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [SH_ACT_CUE, SH_ACT],
  },
  // ... and said of someone or no one: "how can someone kill themselves", "ways to commit suicide",
  // "how would a person overdose".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\b${SH_ASK}\s+(?:${ACT_SOMEONE}|${ACT_BARE})`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [SH_ACT_CUE, SH_ACT],
  },
  // "The most painless way to die", "a painless way to go", "the most effective suicide methods".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\b(?:${DIE_ADJ}\s+){1,2}(?:ways?|methods?|means|options)\s+(?:for\s+(?:me|someone|somebody|a\s+person|people|one)\s+)?(?:to|of)\s+(?:die|dying)\b(?=\s*(?:[?!.,]|$|for\s+(?:me|someone)|if|when|without|by|from|with|in\s+(?:my|your|one's|their)\s+sleep))|\b(?:${GO_ADJ}\s+){1,2}(?:ways?|methods?)\s+(?:for\s+(?:me|someone)\s+)?to\s+go\b(?=\s*(?:[?!.,]|$|for\s+(?:me|someone)|if|when|without|by|from|with|in\s+(?:my|your|one's|their)\s+sleep))|\b(?:(?:list|give|tell|show|share|explain|describe|recommend|suggest|name|what\s+(?:are|is)|what's|which\s+(?:are|is))\b[^.?!\n]{0,30}?|${WAY_ADJ}\s+)${SUICIDE.replace('suicide\\b', 'suicide\\s+(?:methods?|techniques?|options)\\b')}|\bsuicide\s+(?:methods?|techniques?)\s+(?:that|which)\s+(?:\w+\s+)?(?:work|don't\s+hurt|are\s+painless|are\s+quick|won't\s+fail|never\s+fail)`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\b(?:die|dying|go|suicid\w*)\b/i, /\b(?:ways?|methods?|means|options|techniques?)\b/i],
  },
  // Doses: "how many pills do I need to take to overdose and die", "how much insulin would it take to
  // kill me", "what dose of X would be lethal for me", "is 40 paracetamol enough to kill me", "which
  // pills would kill me fastest". Not "how many can I safely take", "what is the lethal dose of
  // caffeine", "how much is an overdose", "how much can you take before it damages your liver".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\bhow\s+(?:many|much)\b[^.?!\n]{0,40}?\b${DRUG}\b[^.?!\n]{0,50}?\b(?:to|would|will|could|should|might|until|till|and|so\s+(?:that\s+)?i|for\s+(?:me|someone|somebody|a\s+person)\s+to)\s+(?:(?:i|it|actually|really|definitely|surely|just|finally|fully|properly|successfully)\s+)*${DOSE_DEATH}|\b(?:what|which)\s+(?:dose|dosage|amount|quantity|number)\s+of\b[^.?!\n]{0,50}?\b(?:to|would|will|could|might|should|for\s+me\s+to)\s+(?:i\s+)?${DOSE_DEATH}|\b(?:is|are|would|will|could|do|does)\b[^.?!\n]{0,50}?\b${DRUG}\b[^.?!\n]{0,30}?\benough\s+to\s+${DOSE_DEATH}|\b(?:what|which)\s+(?:(?:of\s+)?(?:my|the|these|those)\s+)?(?:[\w-]+\s+){0,2}?${DRUG}\s+(?:(?:can|could|would|will|might|should)\s+)?(?:(?:i|someone)\s+(?:take|use|mix|swallow)\s+(?:to\s+)?)?(?:kill|end)\s+(?:me|myself)\b(?!\s+if\s+(?:i\s+)?(?:drink|mixed|combined|taken|mix|combine|take\s+(?:it|them)\s+with))`),
    unless: SH_DOSE_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\bhow\s+(?:many|much)\b|\b(?:dose|dosage|amount|quantity|number)\s+of\b|\benough\s+to\b|\b(?:what|which)\b/i, SH_DRUG, SH_DOSE_DEATH],
  },
  // "What is the lethal dose of X for me / for someone my weight", "... I weigh 50 kg".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\b(?:lethal|fatal|deadly)\s+(?:dose|dosage|amount|quantity)\b[^.?!\n]{0,40}?\bfor\s+(?:me|someone\s+(?:my|of\s+my)\s+(?:weight|size|age))\b|\b(?:lethal|fatal|deadly)\s+(?:dose|dosage|amount|quantity)\b[\s\S]{0,80}?\bi\s+(?:weigh|am\s+\d+\s*(?:kg|kilos?|lbs?|pounds|stone))\b`),
    unless: SH_DOSE_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\b(?:lethal|fatal|deadly)\s+(?:dose|dosage|amount|quantity)\b/i],
  },
  // Where and how deep to cut: "how deep do I need to cut my wrists", "which vein should I cut".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\bhow\s+deep\s+(?:(?:do|would|should|must|can|does)\s+(?:i|you|one|someone)\s+)?(?:(?:need|have|got)\s+to\s+|to\s+)?(?:cut|slit|slash)\s+(?:${ME}|(?:my|your|the)\s+(?:wrists?|veins?|arter(?:y|ies)|arms?|thighs?|throat)|[^.?!\n]{0,30}?\b(?:die|bleed\s+(?:out|to\s+death)|kill\s+myself|hit\s+an?\s+(?:vein|artery)|reach\s+(?:a|the)\s+(?:vein|artery)))|\bwhich\s+(?:vein|artery|arteries|veins)\s+(?:to|should\s+i|do\s+i|would\s+i|is\s+best\s+to)\s+(?:cut|slit|slash|open)|\bwhich\s+way\s+(?:to|should\s+i|do\s+i)\s+(?:cut|slit|slash)\s+(?:my\s+|your\s+|the\s+)?(?:wrists?|veins?|arms?)`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\bhow\s+deep\b|\bwhich\s+(?:veins?|arter\w+|way)\b/i],
  },
  // Heights: "how high does a building need to be so I die when I jump", "is it high enough to die".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\b(?:how\s+(?:high|tall|far|many\s+(?:floors|stor(?:ey|ie|y)s|metres|meters|feet|ft))|what\s+(?:height|floor|storey|story)|which\s+(?:floor|storey|story|bridge|building|cliff))\b(?=[^.?!\n]*\b(?:jump\w*|leap\w*|throw\s+myself|i\s+(?:\w+\s+){0,3}?fall))[^.?!\n]{0,80}?\b(?:to\s+(?:die|kill\s+(?:me|myself)|(?:be\s+)?sure\s+(?:i|to)\s+die)|(?:and|so\s+(?:that\s+)?)\s*i\s+(?:will\s+)?(?:die|don't\s+survive|won't\s+survive|do\s+not\s+survive))\b|\b(?:high|tall)\s+enough\b[^.?!\n]{0,30}?\b(?:to|and|so\s+(?:that\s+)?(?:i|you))\s+(?:(?:will|would)\s+)?(?:die|kill\s+(?:me|myself))\b`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\bhow\s+(?:high|tall|far|many\s+(?:floors|stor))|\bwhat\s+(?:height|floor|storey|story)\b|\bwhich\s+(?:floor|storey|story|bridge|building|cliff)\b|\b(?:high|tall)\s+enough\b/i, /\b(?:die|kill)\b/i],
  },
  // How long it takes: "how long does it take to bleed out", "how long until I pass out if I hang myself".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\bhow\s+long\b(?!\s+(?:did|was|were|had)\b)(?:\s+[\w']+){0,7}?\s+(?:bleed(?:ing)?\s+(?:out|to\s+death)\b(?!\s+(?:a|an|the|brakes?|radiators?)\b)|(?:die|dying|pass(?:ing)?\s+out|los(?:e|ing)\s+consciousness|black(?:ing)?\s+out|go(?:ing)?\s+unconscious|stop(?:ping)?\s+breathing)\b[^.?!\n]{0,40}?\b(?:${METHOD_N}|(?:hang|cut|slit|shoot|drown|gas|suffocate|overdose|od)\w*\s+(?:${ME}|${ONESELF}|(?:my|your)\s+wrists?))\b|(?:hang|suffocate|asphyxiate)\s+(?:${ME}|${ONESELF}))`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\bhow\s+long\b/i, /bleed|\bdie\b|dying|pass\w*\s+out|conscious|black\w*\s+out|breathing|\bhang|suffocat|asphyx/i],
  },
  // Which method hurts less: "which is less painful, hanging or overdosing?", "does it hurt to die by hanging".
  {
    category: 'self-harm/instructions',
    confidence: 0.9,
    pattern: w(String.raw`\b${COMPARE}\b[^.?!\n]{0,40}?\b${METHOD_C}\s+or\s+(?:an?\s+|by\s+)?${METHOD_C}\b|\b${METHOD_C}\s+or\s+(?:an?\s+|by\s+)?${METHOD_C}\b[^.?!\n]{0,40}?\b${COMPARE}\b|\b(?:would|will|does|is)\s+it\s+(?:hurt|be\s+painful|painful)\s+to\s+die\s+(?:from|by|of)\s+(?:[\w'-]+\s+){0,2}?${METHOD_N}\b`),
    unless: SH_HARMLESS,
    notAfter: SH_NOT_REQUEST,
    every: true,
    requires: [/\b(?:or|it)\b/i, /\b(?:hang|jump|overdos|od|shoot|pills|drown|cutting|slitting|bleeding|gun|carbon|helium|exit|suffocation|gassing|paracetamol|insulin|train|die)\w*/i],
  },
  { category: 'self-harm', confidence: 0.85, pattern: w(String.raw`\bi\s*(?:want|wanna|am\s+going|'m\s+going|m\s+going|'m\s+gonna|am\s+gonna|plan|intend|am\s+ready|'m\s+ready)\s+(?:to\s+)?(?:kill\s+myself|kms|unalive\s+myself|die|end\s+(?:it\s+all|my\s+life|everything)|hurt\s+myself|cut\s+myself|disappear\s+forever)\b`) },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\b(?:i(?:'ve|\s+have)\s+been\s+(?:cutting|hurting|burning)\s+myself|i\s+(?:don't|do\s+not)\s+want\s+to\s+(?:live|be\s+alive)(?:\s+anymore)?|life\s+is(?:n't|\s+not)\s+worth\s+living|better\s+off\s+dead|no\s+reason\s+to\s+live)\b`) },
  // Thoughts of killing oneself, and plans told rather than asked ("I keep thinking about ways to kill
  // myself", "how do I stop wanting to end my life", "I'm going to overdose tonight", "I feel
  // suicidal"): flagged and answered with care, not withheld. Not idioms ("killing myself laughing"),
  // accidents in the past ("nearly killed myself on the ladder"), "I am not suicidal" or a game.
  { category: 'self-harm', confidence: 0.75, pattern: w(String.raw`\b(?=kill|off|unaliv|end|top|hang|neck|poison|drown|suffocat|gas|electrocut|strangl|asphyxiat|overdos|do|tak|slit|slash)(?<!(?:\bnever|\bnot|n't|\bwon't)\s+(?:\w+\s+)?)(?:(?:kill|off|unalive|end|top|hang|neck|poison|drown|suffocate|gas|electrocute|strangle|asphyxiate|overdose)(?:ing|s)?\s+${ME}|do(?:ing)?\s+${ME}\s+in|(?:end(?:ing)?|tak(?:e|ing))\s+my\s+(?:own\s+)?life\b(?!\s+(?:as\s+an?\b|insurance|assurance|policy|cover|savings|story|stories|coach|plan|support|sentence|cycle|lessons?|back))|(?:slit(?:ting)?|slash(?:ing)?)\s+my\s+(?:wrists?|throat))${SELF_IDIOM}`), unless: w(SH_GAME), every: true, requires: [SH_ME_CUE] },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\bi(?:'m|\s+am|\s+feel|\s+get|'ve\s+been(?:\s+feeling)?|\s+have\s+been(?:\s+feeling)?|\s+keep\s+(?:feeling|getting))\s+(?:so\s+|really\s+|very\s+|pretty\s+|kind\s+of\s+|kinda\s+|a\s+(?:bit|little)\s+|quite\s+|extremely\s+|super\s+|actually\s+|still\s+)*suicidal\b(?!\s+(?:ideation\s+)?(?:research|patients?|clients?))|\bi(?:'m|\s+am|'ve|\s+have|\s+keep|\s+can't\s+stop|\s+cannot\s+stop)\s+(?:been\s+)?(?:having|getting|thinking\s+(?:about|of))\s+(?:(?:a\s+lot\s+of|so\s+many|more|some|these|those|constant|dark)\s+)?(?:suicidal\s+(?:thoughts|feelings|urges|ideation)|${SUICIDE})`) },
  { category: 'self-harm', confidence: 0.8, pattern: w(String.raw`\bi\s*(?:want|wanna|'m\s+going|am\s+going|m\s+going|'m\s+gonna|am\s+gonna|plan|intend|'m\s+planning|am\s+planning|'m\s+about|am\s+about|'m\s+ready|am\s+ready|need)\s+(?:to\s+)?(?:overdose|od|take\s+(?:all|every\s+one)\s+(?:of\s+)?(?:my|the|these|those|his|her)\s+(?:\w+\s+)?(?:pills|tablets|meds|medication|sleeping\s+pills|painkillers))\b`) },
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

/** Global copies of the rules that try every match. */
const EVERY = new Map(RULES.filter((r) => r.every).map((r) => [r, new RegExp(r.pattern.source, `${r.pattern.flags}g`)] as const));

/** Up to 80 characters before a match, from the start of its sentence, without trailing spaces. */
function sentenceBefore(text: string, at: number): string {
  const before = text.slice(Math.max(0, at - 80), at);
  const start = Math.max(before.lastIndexOf('.'), before.lastIndexOf('?'), before.lastIndexOf('!'), before.lastIndexOf('\n'));
  return before.slice(start + 1).trimEnd();
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
  // A prerequisite shared by several rules is tested once.
  const tested = new Map<RegExp, boolean>();
  const has = (re: RegExp) => {
    let found = tested.get(re);
    if (found === undefined) tested.set(re, (found = re.test(sample)));
    return found;
  };
  for (const rule of RULES) {
    if (rule.requires && !rule.requires.every(has)) continue;
    const matches = rule.every ? sample.matchAll(EVERY.get(rule)!) : [rule.pattern.exec(sample)];
    for (const m of matches) {
      if (!m) continue;
      // The harmless context must be near the match (the same sentence or so), not anywhere.
      if (rule.unless && rule.unless.test(sample.slice(Math.max(0, m.index - 120), m.index + m[0].length + 120))) continue;
      if (rule.notAfter && rule.notAfter.test(sentenceBefore(sample, m.index))) continue;
      note(rule.category, rule.confidence);
      break;
    }
  }
  if (sexualMinors(sample)) note('sexual/minors', 0.95);
  for (const f of profanityFindings(original, sample)) note(f.category, f.confidence);
  const all = [...best.entries()].map(([type, confidence]) => ({ type, confidence })).sort((a, b) => b.confidence - a.confidence);
  return { categories: all.filter((c) => c.confidence >= opts.threshold), confidence: all[0]?.confidence ?? 0 };
}

export function createOfflineModerator(opts: OfflineClassifierOptions) {
  return { name: 'offline', classify: async (text: string) => classifyOffline(text, opts) };
}
