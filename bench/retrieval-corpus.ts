// The retrieval-quality benchmark's material: three documents written for it (a lighthouse
// keeper's memoir, a baker's notebook, a radio engineer's letters) and questions whose answers
// each sit in one known sentence. Questions are phrased the way people ask, not copied from the
// text, so a lexical ranker has to work for its hits. Not a benchmark itself.

export const corpus: { fileName: string; text: string }[] = [
  {
    fileName: 'keeper-memoir.txt',
    text: `I was born in the fishing village of Kessock in the winter of 1931, the youngest of five children. My father mended nets for the herring boats and my mother kept hens behind the chapel.

When I was seventeen I left school and went to sea on a coal steamer bound for Newcastle. The work was filthy and the pay was poor, but I learned to read a chart and to trust a compass more than my own eyes.

In 1954 the Northern Lighthouse Board took me on as an assistant keeper at Cape Wrath. The light there stands on cliffs four hundred feet above the water, and in a westerly gale the whole tower hums like a plucked string.

A keeper's day is ruled by the lamp. We lit it at sunset, trimmed the wicks at midnight and again at four, and put it out at sunrise. Between those hours we polished brass, painted railings and wrote the weather in the log every three hours.

My wife Elspeth joined me on the rock in 1957. She grew potatoes and kale in a walled garden that the salt wind burned black every October, and every spring she planted it again without complaint.

The worst storm I ever saw came in January 1962. Waves broke over the lantern gallery itself, and a pane of the lantern glass cracked from top to bottom. We kept the light burning all night by standing in front of the crack with a sheet of canvas.

The supply boat came every fortnight when the sea allowed. It brought flour, paraffin, letters and, once, a gramophone that the principal keeper played until the only record wore smooth.

I was made principal keeper at Muckle Flugga in 1968, the most northerly light in Britain. Up there the summer sun barely sets, and in June I could read a newspaper on the gallery at midnight.

Automation came for the lights in the 1980s. The last night I kept a light was the thirtieth of March 1995, and when the engineers switched on the automatic lamp I shook their hands and went down the stair without looking back.

People ask whether I was lonely. I was never lonely; I had the birds, the weather and the log. What I missed was trees. There is not a single tree on Muckle Flugga.`,
  },
  {
    fileName: 'baker-notebook.txt',
    text: `Our bakery opened on Mill Lane in 1978 with one oven, two tables and a debt to my uncle that took nine years to repay.

The sourdough starter we still use came from a baker in San Francisco who gave a spoonful to my wife in 1976. We have fed it every day since, with rye flour in winter and wheat in summer.

Proving dough is a matter of temperature more than time. In a cold kitchen the loaves need six hours; in August they are ready in two, and if you forget them they collapse like tired old men.

The oven is lit at three in the morning. By five the first rolls are out, by six the bread is on the shelves, and by seven the queue reaches the post office.

Our best seller has always been the cardamom bun. The recipe came from my grandmother in Gothenburg, and the secret is to crush the seeds fresh every morning rather than buying them ground.

Salt goes in late. If you add it with the yeast it slows the fermentation, so we mix flour and water first, rest the dough for half an hour, and only then add the salt.

In 1991 a fire started in the flour store and burned the back half of the shop. The neighbours carried sacks out through the smoke, and we baked in the school kitchen for eleven weeks while the roof was rebuilt.

Rye bread needs patience. We bake it in tins at a low heat for two hours and let it rest a full day before slicing, because cut too early it is sticky in the middle.

We close on Mondays. On that day I walk the canal towpath to the mill at Hawley and buy the stone-ground flour directly from the miller.

When my daughter took over the bakery in 2015 she added gluten-free loaves and a coffee machine. I grumbled about the machine for a month and now I drink four cups a day.`,
  },
  {
    fileName: 'radio-letters.txt',
    text: `Dear Tom, the transmitter is finally finished. It runs on a pair of valves salvaged from an old army set and puts out about forty watts on the eighty-metre band.

I strung the aerial between the chimney and the old pear tree, sixty-six feet of copper wire. My neighbour complains it spoils his view of the hills, so I have promised to paint the insulators green.

Last night I made my first contact beyond Europe: a fisherman on the coast of Newfoundland, who came through faint but clear just after two in the morning. We talked about the weather for ten minutes until the signal faded.

The secret of a quiet receiver is good earthing. I buried a copper pipe six feet deep beside the drain and the hum that had plagued me for months disappeared overnight.

You asked about the licence. I sat the examination in Bristol in March 1959; it had a theory paper and a Morse test at twelve words per minute, which I passed on the second attempt.

During the floods of 1968 our little club kept the emergency messages moving for three days when the telephone lines were down. I handled traffic for the county council from my kitchen table.

My call sign is G3KVR. If you hear it on the air, it is me, probably complaining about the propagation.

Sunspots decide everything in this hobby. When the solar cycle peaks the high bands open to the whole world; at the minimum you are lucky to reach France.

I have started teaching Morse code to the boys from the grammar school on Thursday evenings. Young Peter already copies at fifteen words per minute, faster than his teacher.

Keep well, and bring the soldering iron when you visit. Yours ever, Arthur.`,
  },
];

/** Each question names a phrase that appears only in the sentence holding its answer. */
export const questions: { question: string; answerPhrase: string }[] = [
  { question: 'Where were you born?', answerPhrase: 'village of Kessock' },
  { question: 'What job did your father do?', answerPhrase: 'mended nets' },
  { question: 'When did you first go to sea, and on what kind of ship?', answerPhrase: 'coal steamer' },
  { question: 'Which lighthouse was your first posting as assistant keeper?', answerPhrase: 'assistant keeper at Cape Wrath' },
  { question: 'How often did you trim the wicks of the lamp?', answerPhrase: 'trimmed the wicks' },
  { question: 'What did your wife grow in her garden?', answerPhrase: 'potatoes and kale' },
  { question: 'Tell me about the worst storm you lived through.', answerPhrase: 'worst storm I ever saw' },
  { question: 'What did the supply boat bring you?', answerPhrase: 'flour, paraffin, letters' },
  { question: 'Which is the most northerly lighthouse in Britain?', answerPhrase: 'most northerly light' },
  { question: 'When did you keep a light for the last time?', answerPhrase: 'thirtieth of March 1995' },
  { question: 'Were you lonely on the rock? What did you miss?', answerPhrase: 'What I missed was trees' },
  { question: 'Where did your sourdough starter come from?', answerPhrase: 'baker in San Francisco' },
  { question: 'How long does the dough take to prove in a cold kitchen?', answerPhrase: 'six hours' },
  { question: 'What time is the oven lit in the morning?', answerPhrase: 'lit at three in the morning' },
  { question: 'What is your best-selling bun and what is its secret?', answerPhrase: 'cardamom bun' },
  { question: 'Why do you add the salt late?', answerPhrase: 'slows the fermentation' },
  { question: 'What happened in the fire of 1991?', answerPhrase: 'fire started in the flour store' },
  { question: 'How do you bake rye bread?', answerPhrase: 'tins at a low heat' },
  { question: 'What do you do on Mondays when the bakery is closed?', answerPhrase: 'canal towpath' },
  { question: 'What did your daughter change when she took over?', answerPhrase: 'gluten-free loaves' },
  { question: 'What valves does your transmitter use and how much power?', answerPhrase: 'forty watts' },
  { question: 'How did you put up your aerial?', answerPhrase: 'chimney and the old pear tree' },
  { question: 'Who was your first contact outside Europe?', answerPhrase: 'coast of Newfoundland' },
  { question: 'How did you get rid of the hum in the receiver?', answerPhrase: 'good earthing' },
  { question: 'When and where did you take your licence examination?', answerPhrase: 'examination in Bristol' },
  { question: 'What did the radio club do during the floods?', answerPhrase: 'emergency messages' },
  { question: 'What is your call sign?', answerPhrase: 'G3KVR' },
  { question: 'How do sunspots affect radio?', answerPhrase: 'solar cycle peaks' },
  { question: 'Who are you teaching Morse code to?', answerPhrase: 'boys from the grammar school' },
  { question: 'What should I bring when I visit?', answerPhrase: 'soldering iron' },
];
