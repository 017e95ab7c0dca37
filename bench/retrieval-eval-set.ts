// The retrieval-quality evaluation set: four documents written for it about one person (Marta
// Lindqvist, a Swedish-born country vet who settled in Scotland), in the shapes people upload: a
// memoir with headings, letters with date lines and sign-offs, an interview transcript and a diary.
// Facts have near-twins across documents (her first horse and her first dog, her birth and her
// daughter's, two moves, two broken bones, two favourite books), and questions are asked the way
// people ask, most sharing no content word with the sentence that answers them. Each answerable
// question names `passage`, a phrase found only in the answering passage, and `answer`, the words
// a reply must contain to have answered. Unanswerable questions have neither. Not a benchmark itself.

export interface EvalDocument {
  fileName: string;
  text: string;
}

export interface EvalQuestion {
  question: string;
  /** A phrase only the answering passage holds; absent for questions the documents cannot answer. */
  passage?: string;
  /** What the reply must contain to count as answered (defaults to `passage`). */
  answer?: string;
}

export const personName = 'Marta Lindqvist';

export const documents: EvalDocument[] = [
  {
    fileName: 'marta-memoir.md',
    text: `# A Vet in Two Countries

## Chapter One: Umeå

I was born in Umeå in the hard winter of 1951, the second of three daughters. My father was a railway signalman on the line to Vännäs, and my mother taught needlework at the girls' school.

We lived above a bicycle repair shop on Storgatan. The smell of oil and rubber is still, for me, the smell of childhood, and I can mend a puncture faster than most people can boil an egg.

My first horse was a grey mare called Dimma, bought from a timber haulier in 1962 for forty crowns of my own savings. She was old, stubborn and half blind in one eye, and I loved her more than anything.

When I was fifteen I broke my wrist skiing on the slopes behind the hospital. The doctor who set it let me watch, and I decided that afternoon that I would spend my life mending animals.

## Chapter Two: Uppsala

I studied veterinary medicine at Uppsala from 1968 and qualified in the spring of 1973. There were nine women in a class of sixty, and the professor of anatomy never once learned our names.

To pay my rent I worked weekends in the kitchens of the Nation house, peeling potatoes by the sackful. I still cannot look at a potato peeler without my shoulders aching.

## Chapter Three: Crossing the North Sea

I came to Scotland in September 1974 on the ferry from Gothenburg to Newcastle, with one suitcase and a stethoscope. A practice in Dingwall had answered my letter, and the senior partner, Mr Fraser, met me at the station in a Land Rover that smelt of sheep.

Mr Fraser charged two pounds for a farm visit and never sent a bill to a widow. He taught me that a vet's most important instrument is patience, and that the second most important is a warm hand.

I met Callum Ross at a ceilidh in Strathpeffer in 1975. He trod on my feet all through the Gay Gordons and apologised in such terrible Swedish that I agreed to see him again.

We married in the little church at Fodderty in June 1976. It rained so hard that the photographer gave up, and the only picture of the day is a blurred one taken by my sister Ingrid.

## Chapter Four: The Hard Years

In 1983 a Clydesdale stallion kicked me against a stable wall and broke my left arm in two places. I was back at work in a sling after nine days, which Callum still calls the stupidest thing I ever did.

The winter of 1984 was the worst for foot rot that anyone could remember. I drove over forty thousand miles that year, most of them on single-track roads in the dark.

## Chapter Five: Mull

We moved to the island of Mull in 1988, when the practice in Tobermory needed a partner. The crossing from Oban takes forty-six minutes, and in a westerly gale the ferry does not sail at all.

On Mull my patients were mostly sheep, Highland cattle and the occasional otter brought in by a tourist. The strangest patient I ever treated was a golden eagle with a broken talon, which we kept in the bathroom for a week.

I retired from practice in 2011, after thirty-seven years as a vet. Our daughter Anna threw a party in the village hall, and half the farmers on the island came in their work boots.`,
  },
  {
    fileName: 'letters-to-anna.txt',
    text: `Tobermory, 3 October 1995

Dear Anna,

Your father has finally finished the boat. It is a clinker-built dinghy of larch on oak, eleven feet long, and he has painted her blue and named her Solveig after your grandmother.

The first time he launched her she leaked like a basket, and he had to row back to the pier with me bailing. He says the wood needs to swell. I say it needs a proper boatbuilder.

With love,
Mum

Tobermory, 14 February 1997

Dear Anna,

I remember the morning you were born as if it were last week. It was the ninth of March 1977 in the Raigmore hospital in Inverness, at six in the morning, and the midwife said you had the loudest voice on the ward.

You weighed seven pounds and two ounces, and your father fainted in the corridor. He still denies it.

With love,
Mum

Tobermory, 22 August 1999

Dear Anna,

We have a new dog. Our first dog, the collie Bonnie, came from a farm near Oban in 1979, and you will remember how she herded the hens. This one is a rescue lurcher called Pilot, and he is afraid of the hens.

Your father is reading Sunset Song again, for the fourth time. He says Lewis Grassic Gibbon understood the land better than any politician, and he reads the last chapter aloud to the dog.

With love,
Mum

Tobermory, 30 November 2004

Dear Anna,

The new surgery opened on Monday. It cost the partnership one hundred and eighty thousand pounds, most of it borrowed from the bank in Oban, and it has a proper operating theatre at last.

For twenty years I operated on a kitchen table under a lamp borrowed from the church hall. The new theatre has shadowless lights and an anaesthetic machine that talks to you.

With love,
Mum`,
  },
  {
    fileName: 'interview-west-highland-free-press.txt',
    text: `Interview with Marta Lindqvist, West Highland Free Press, spring 1998.

Q: What brought a Swedish vet to the Highlands?
A: A letter and a stubborn streak. I wrote to eleven practices in Scotland, and only one answered. I think Mr Fraser hired me because nobody else would take the job.

Q: Do you miss Sweden?
A: I miss the light in June and the cinnamon buns. I go home every second summer to my sister's cottage on the lake at Bjurholm.

Q: What is your favourite book?
A: Doctor Glas, by Hjalmar Söderberg. I read it every winter. It is about a doctor who thinks too much, which is a warning to all of us in the profession.

Q: What was the hardest case of your career?
A: A calving at Calgary Bay in a January blizzard in 1991. The calf was lying backwards and the cow was down in the snow. It took four hours and both of them lived, and I could not feel my hands for a day.

Q: How has the work changed?
A: When I started, a vet was a farmer's doctor. Now half of my work is cats and dogs, and the owners read about their illnesses on the computer before they come in.

Q: What do you do when you are not working?
A: I swim in the sea off Calgary beach every morning from May to October, whatever the weather. And I keep bees, four hives behind the house, though the bees on Mull are as bad-tempered as the sheep.

Q: Is there anything you regret?
A: That I never learned Gaelic properly. I can say good morning and ask a farmer where the sick ewe is, and that is all.`,
  },
  {
    fileName: 'diary-2003.txt',
    text: `Diary, 2003

12 January 2003
Snow on Ben More down to the road. Three calls before breakfast, all to ewes in trouble at Glen Forsa. Came home soaked and Callum had made a fish pie.

3 February 2003
My sister Ingrid telephoned from Stockholm. Her husband Lars has retired from the post office after forty-one years, and they are going to spend the money on a trip to Patagonia.

19 April 2003
Today I turned the vegetable beds and planted the early potatoes, the ones called Home Guard. The rabbits will eat half of them, as they do every year.

7 June 2003
Took the dinghy round to Ulva with Callum. We saw a sea eagle take a fish not twenty yards from the boat, and Callum dropped his sandwich in the water.

22 August 2003
Anna came home with the grandson for the first time. Little Rory is four months old and has Callum's ears. I cried in the kitchen where nobody could see.

30 October 2003
The honey harvest was poor this year, only thirty pounds from the four hives, because the summer was so wet. I gave most of it away to the neighbours anyway.

15 December 2003
Annual checkup at the surgery in Craignure. Blood pressure a little high. The young doctor told me to eat less salt and walk more, and I told him I walk more than he does.

Till next year,
M.`,
  },
];

export const questions: EvalQuestion[] = [
  // The memoir.
  { question: 'Where did you grow up?', passage: 'born in Umeå', answer: 'Umeå' },
  { question: 'What year were you born?', passage: 'hard winter of 1951', answer: '1951' },
  { question: 'What did your dad do for a living?', passage: 'railway signalman', answer: 'signalman' },
  { question: 'What was your mum\'s profession?', passage: 'taught needlework', answer: 'needlework' },
  { question: 'Do you have any siblings?', passage: 'second of three daughters', answer: 'three daughters' },
  { question: 'What was your childhood home like?', passage: 'bicycle repair shop', answer: 'bicycle repair shop' },
  { question: 'What was the name of your pony when you were a girl?', passage: 'grey mare called Dimma', answer: 'Dimma' },
  { question: 'How much did you pay for your first horse?', passage: 'forty crowns', answer: 'forty crowns' },
  { question: 'How did you hurt yourself as a teenager?', passage: 'broke my wrist skiing', answer: 'wrist' },
  { question: 'Why did you choose to become a vet?', passage: 'spend my life mending animals', answer: 'mending animals' },
  { question: 'Which university trained you?', passage: 'veterinary medicine at Uppsala', answer: 'Uppsala' },
  { question: 'When did you graduate?', passage: 'qualified in the spring of 1973', answer: '1973' },
  { question: 'How many women were on your course?', passage: 'nine women in a class of sixty', answer: 'nine women' },
  { question: 'How did you support yourself as a student?', passage: 'peeling potatoes by the sackful', answer: 'kitchens' },
  { question: 'How did you travel to Britain?', passage: 'ferry from Gothenburg to Newcastle', answer: 'ferry' },
  { question: 'Who gave you your first job in Scotland?', passage: 'senior partner, Mr Fraser', answer: 'Mr Fraser' },
  { question: 'What did your first boss charge farmers?', passage: 'two pounds for a farm visit', answer: 'two pounds' },
  { question: 'Where did you meet your husband?', passage: 'ceilidh in Strathpeffer', answer: 'Strathpeffer' },
  { question: 'Tell me about your wedding day.', passage: 'married in the little church at Fodderty', answer: 'Fodderty' },
  { question: 'Did a horse ever injure you badly?', passage: 'Clydesdale stallion kicked me', answer: 'Clydesdale' },
  { question: 'How far did you drive in 1984?', passage: 'forty thousand miles', answer: 'forty thousand miles' },
  { question: 'When did you move to the island?', passage: 'moved to the island of Mull in 1988', answer: '1988' },
  { question: 'How long is the boat trip to Mull from the mainland?', passage: 'forty-six minutes', answer: 'forty-six minutes' },
  { question: 'What was the oddest creature you ever looked after?', passage: 'golden eagle with a broken talon', answer: 'golden eagle' },
  { question: 'When did you stop working?', passage: 'retired from practice in 2011', answer: '2011' },
  // The letters.
  { question: 'What did your husband build?', passage: 'clinker-built dinghy', answer: 'dinghy' },
  { question: 'What is the boat called?', passage: 'named her Solveig', answer: 'Solveig' },
  { question: 'When was your daughter born?', passage: 'ninth of March 1977', answer: '1977' },
  { question: 'In which hospital did Anna arrive?', passage: 'Raigmore hospital in Inverness', answer: 'Raigmore' },
  { question: 'How heavy was your baby?', passage: 'seven pounds and two ounces', answer: 'seven pounds' },
  { question: 'What was the name of your first dog?', passage: 'the collie Bonnie', answer: 'Bonnie' },
  { question: 'What kind of pet did you adopt in 1999?', passage: 'rescue lurcher called Pilot', answer: 'lurcher' },
  { question: "What is Callum's favourite novel?", passage: 'reading Sunset Song again', answer: 'Sunset Song' },
  { question: 'How much did the new surgery cost?', passage: 'one hundred and eighty thousand pounds', answer: 'one hundred and eighty thousand pounds' },
  { question: 'Where did you operate before the new surgery opened?', passage: 'operated on a kitchen table', answer: 'kitchen table' },
  // The interview.
  { question: 'How many practices did you apply to?', passage: 'wrote to eleven practices', answer: 'eleven' },
  { question: 'What do you long for from home?', passage: 'light in June and the cinnamon buns', answer: 'cinnamon buns' },
  { question: 'Where do you stay when you visit your homeland?', passage: "sister's cottage on the lake at Bjurholm", answer: 'Bjurholm' },
  { question: 'Which novel do you love most?', passage: 'Doctor Glas, by Hjalmar', answer: 'Doctor Glas' },
  { question: 'What was the most difficult job you had as a vet?', passage: 'calving at Calgary Bay', answer: 'calving' },
  { question: 'How is veterinary work different now?', passage: "vet was a farmer's doctor", answer: 'cats and dogs' },
  { question: 'What are your hobbies?', passage: 'swim in the sea off Calgary beach', answer: 'swim' },
  { question: 'How many beehives do you keep?', passage: 'four hives behind the house', answer: 'four hives' },
  { question: 'Do you speak the local language?', passage: 'never learned Gaelic properly', answer: 'Gaelic' },
  // The diary.
  { question: 'What did your husband cook after the snowy callouts?', passage: 'Callum had made a fish pie', answer: 'fish pie' },
  { question: "What is your brother-in-law's plan for his retirement?", passage: 'trip to Patagonia', answer: 'Patagonia' },
  { question: 'Which variety of potato do you plant in spring?', passage: 'called Home Guard', answer: 'Home Guard' },
  { question: 'What wildlife did you see on the trip to Ulva?', passage: 'sea eagle take a fish', answer: 'sea eagle' },
  { question: "What is your grandchild's name?", passage: 'Little Rory', answer: 'Rory' },
  { question: 'How much honey did the bees make in 2003?', passage: 'thirty pounds from the four hives', answer: 'thirty pounds' },
  { question: 'What did the doctor say about your health?', passage: 'Blood pressure a little high', answer: 'salt' },
  // Questions the documents cannot answer.
  { question: 'Which football team do you support?' },
  { question: 'Have you ever visited Japan?' },
  { question: 'What is your favourite film?' },
  { question: 'Did you ever learn to play the piano?' },
  { question: 'What car do you drive these days?' },
  { question: 'Which political party do you vote for?' },
  { question: 'What was your doctoral thesis about?' },
  { question: 'Can you speak Italian?' },
  { question: 'What is your favourite colour?' },
  { question: 'Did you ever serve in the army?' },
  { question: 'What is your star sign?' },
  { question: 'Who is your favourite painter?' },
];
