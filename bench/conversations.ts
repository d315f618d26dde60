import { seededRandom } from './corpus';

/**
 * Reproducible long conversations between friends, written for the recall benchmark: two or three
 * people meeting in dated sessions over months, hundreds of turns each. Most turns are chit-chat
 * that names the others ("That's amazing, Priya!"); a few state something about a speaker's life
 * (a pet adopted, a new job, a trip, a class, a race, a move, a wedding...), and later turns come
 * back to it without restating it ("How is Biscuit settling in?"). Questions are asked the way
 * people ask them, months later and in other words: "When did Priya bring home her new dog?" for
 * "We adopted a beagle from the shelter on Saturday! His name is Biscuit." Each is annotated with
 * the turns that hold its answer: single-hop (one turn), temporal (when: the turn, in its dated
 * session) and multi-hop (two or more turns, often of different sessions).
 *
 * Like a real conversation, a question usually shares the speaker's name (which appears in a
 * large share of the turns) and one or two words with its answer, sometimes none: a lexical
 * search that weighs every shared word alike finds the chit-chat naming the person first.
 */

export interface Turn {
  /** "D<session>:<turn>", as the published benchmarks name turns. */
  id: string;
  speaker: string;
  text: string;
}

export interface ConversationSession {
  date: Date;
  turns: Turn[];
}

export type QuestionKind = 'single-hop' | 'temporal' | 'multi-hop';

export interface Question {
  text: string;
  kind: QuestionKind;
  /** Ids of the turns holding the answer. */
  evidence: string[];
}

export interface Conversation {
  name: string;
  speakers: string[];
  sessions: ConversationSession[];
  questions: Question[];
}

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

const NAMES = [
  'Priya',
  'Marcus',
  'Elena',
  'Tomasz',
  'Aisha',
  'Jonah',
  'Sofia',
  'Kenji',
  'Nadia',
  'Owen',
  'Leila',
  'Diego',
  'Hannah',
  'Ravi',
  'Grace',
  'Mateo',
  'Ingrid',
  'Samuel',
  'Yara',
  'Felix',
  'Chloe',
  'Andre',
  'Mira',
  'Lucas',
  'Zoe',
  'Idris',
  'Clara',
  'Emeka',
];

const PET_KINDS = ['beagle', 'tabby kitten', 'rescue greyhound', 'parrot', 'corgi puppy', 'pair of rabbits', 'border collie', 'guinea pig'];
const PET_NAMES = ['Biscuit', 'Pepper', 'Mochi', 'Juniper', 'Waffles', 'Clementine', 'Pickles', 'Luna', 'Ziggy', 'Noodle', 'Hazel', 'Bruno'];
const COMPANIES = [
  'the city aquarium',
  'a small design studio',
  'Northfield Hospital',
  'the public library',
  'a solar panel startup',
  'the regional newspaper',
  'a bakery downtown',
  'the botanical garden',
];
const ROLES = [
  'marine biologist',
  'graphic designer',
  'night nurse',
  'archivist',
  'field engineer',
  'sports reporter',
  'pastry chef',
  'horticulturist',
];
const PLACES = [
  'Lisbon',
  'the Scottish Highlands',
  'Kyoto',
  'Lake Tahoe',
  'Cape Town',
  'the Amalfi coast',
  'Reykjavik',
  'Patagonia',
  'Vancouver Island',
  'Crete',
];
const PET_STATEMENTS = [
  'Guess what? We adopted a {pet} from the shelter on Saturday! We named him {petName}.',
  'So I finally did it. I brought home a {pet}! Meet {petName}, the new boss of the house.',
  'Big news: there is a {pet} living with me now. {petName} came home from the rescue on Sunday.',
];
const TRIP_DETAILS = [
  'we hiked up to an old lighthouse every morning',
  'the food markets alone were worth the flight',
  'it rained for three days but we still loved it',
  'we rented a tiny cabin with no wifi at all',
  'I finally tried paragliding, terrifying and amazing',
  'we took the night train and watched the sunrise from the window',
];
const HOBBIES = ['pottery', 'salsa dancing', 'rock climbing', 'watercolor painting', 'woodworking', 'beekeeping', 'choir singing', 'fencing'];
const HOBBY_PLACES = [
  'at the community center',
  'in a studio near the station',
  'at the old mill',
  'at the rec center on Fifth',
  'with a teacher from the neighborhood',
];
const RACES = ['half marathon', '10k trail race', 'charity fun run', 'sprint triathlon'];
const RACE_TIMES = ['two hours and four minutes', 'fifty-eight minutes', 'just under an hour', 'an hour and forty minutes'];
const CITIES = ['Denver', 'Rotterdam', 'Montreal', 'Edinburgh', 'Austin', 'Melbourne', 'Porto', 'Seattle'];
const RELATIVES = ['sister', 'brother', 'cousin', 'best friend from college'];
const RELATIVE_NAMES = ['Tessa', 'Malik', 'Rosa', 'Bennett', 'Ayla', 'Viktor', 'June', 'Omar'];
const VENUES = ['a vineyard', 'an old barn by the river', 'the botanical gardens', 'a lighthouse on the coast', "her grandparents' farm"];
const BANDS = ['The Lumineers', 'Florence and the Machine', 'Arctic Monkeys', 'Hozier', 'Fleetwood Mac tribute band', 'a jazz trio from New Orleans'];
const BOOKS = ['The Overstory', 'Project Hail Mary', 'Pachinko', 'The Midnight Library', 'Circe', 'A Gentleman in Moscow'];
const DISHES = ['lamb tagine', 'pierogi', 'mole poblano', 'jollof rice', 'shakshuka', 'butter chicken'];
const INJURIES: [sport: string, injury: string][] = [
  ['soccer', 'sprained my ankle'],
  ['volleyball', 'jammed two fingers'],
  ['tennis', 'pulled a muscle in my back'],
  ['basketball', 'twisted my knee'],
];

/** Small talk: what most turns of a long conversation are. `{to}` is the person addressed. */
const OPENERS = [
  'Hey {to}! Long time no talk. How have you been?',
  'Hi {to}! So good to hear from you. What have you been up to lately?',
  'Hey {to}, hope your week is going okay! Anything new?',
  '{to}! Finally, I have been meaning to message you all week.',
  'Morning {to}! I have a coffee and ten minutes, catch me up.',
  'Hey {to}, it feels like ages since we last chatted!',
];
const OPENER_REPLIES = [
  'Hey {to}! Great to hear from you. Busy as always, but good!',
  'Hi {to}! I am doing well, just a hectic couple of weeks. You?',
  '{to}! I was just thinking about you. Things are good here.',
  'Hey {to}, same old, same old. Work keeps me running but I cannot complain.',
  'Hi {to}! Ugh, it has been a week. But I am happy we are talking.',
];
const SMALL_TALK = [
  'The weather has been so weird lately, {to}, sunny one day and freezing the next.',
  'I binged that new detective show over the weekend, {to}, you would love it.',
  'Work has been crazy, {to}. Three deadlines in one week, I barely slept.',
  'Honestly {to}, I just want a quiet weekend with a good coffee and no plans.',
  'I tried that new brunch place on the corner, {to}. The pancakes were huge.',
  'My neighbor has been renovating for a month, {to}, the drilling starts at seven every morning.',
  'I have been trying to drink more water and go to bed earlier, {to}. Going okay so far!',
  'Did you see the sunset yesterday, {to}? The whole sky was pink.',
  'I finally cleaned out my closet, {to}. Three bags for the charity shop!',
  'Traffic this morning was unreal, {to}. I sat on the bridge for forty minutes.',
  'My phone screen cracked again, {to}. Third time this year, I know.',
  'I have been listening to a lot of old records lately, {to}. Very nostalgic.',
  'We had a little picnic in the park on Sunday, {to}, nothing fancy but it was lovely.',
  'I am so ready for the holidays, {to}. I need a proper break.',
  'I started journaling again, {to}. Just a few lines every night.',
  'The kids next door set up a lemonade stand, {to}, I bought three cups.',
  'Do you still do those long Sunday calls with your family, {to}?',
  'I have been cooking a lot more at home, {to}. Saving money and eating better.',
  'It has been a strange few weeks, {to}, but I feel like things are settling down.',
  'I went to the farmers market last week, {to}, and came home with way too many tomatoes.',
];
const REACTIONS = [
  'That is amazing, {to}! I am so happy for you.',
  'Wow, {to}, good for you! That is really exciting.',
  'No way! {to}, that is huge. Congrats!',
  'Oh {to}, that sounds wonderful. You deserve it.',
  'Haha, {to}, that is so you. I love it.',
  'That is so cool, {to}! Tell me everything.',
  'Oh wow. {to}, I did not see that coming, but it is great news.',
];
const SYMPATHY = [
  'Oh no, {to}! I am so sorry. Take it easy, okay?',
  '{to}, that sounds awful. Is there anything I can do?',
  'Ouch. {to}, please rest and do not rush it.',
];
const SMALL_REPLIES = [
  'Haha, totally, {to}. Same here.',
  'I know what you mean, {to}.',
  'Ugh, {to}, I feel that.',
  'Ha! Classic, {to}.',
  'Right? {to}, it is so true.',
  'That sounds nice, {to}. I could use some of that.',
  'Aw, {to}, that made me smile.',
  'Oh no, {to}! Hope it gets better soon.',
  'You always say that, {to}, haha.',
  'Sounds like a good plan, {to}.',
];
const CLOSINGS = [
  'I have to run, {to}, but this was so nice. Talk soon!',
  'Okay {to}, I will let you go. Take care of yourself!',
  'Great catching up, {to}. Let us not wait so long next time.',
  'Gotta go make dinner, {to}. Bye for now!',
  'Thanks for the chat, {to}. Say hi to everyone for me!',
];
const CLOSING_REPLIES = ['Bye {to}! Talk soon.', 'Take care, {to}!', 'Always a pleasure, {to}. Bye!', 'See you, {to}!'];

/** One thing in a speaker's life: told once, asked about later, and mentioned in passing in between. */
interface Fact {
  /** The turn that states it, said by its owner. */
  statement: string;
  /** Follow-up questions the others ask, and the owner's answers, which add detail but not the fact. */
  followUps: [question: string, answer: string][];
  /** Later mentions that name it without restating it: [asker's turn, owner's reply]. */
  mentions: [string, string][];
  /** Questions about it, asked later in other words; {who} is its owner. */
  questions: { kind: QuestionKind; text: string }[];
  /** Bad news gets sympathy instead of congratulations. */
  bad?: boolean;
  /** A key shared by facts that answer one multi-hop question together. */
  group?: { key: string; question: string };
}

const fill = (text: string, slots: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, key: string) => slots[key] ?? whole);

/** Values drawn for one conversation, none twice: two people never share a pet's name or a trip. */
class Draws {
  private readonly pools = new Map<readonly unknown[], unknown[]>();
  constructor(private readonly random: Random) {}

  next<T>(items: readonly T[]): T {
    let pool = this.pools.get(items) as T[] | undefined;
    if (!pool || pool.length === 0) {
      pool = shuffled(this.random, items);
      this.pools.set(items, pool);
    }
    return pool.pop() as T;
  }
}

/** The facts of one person's months. */
function lifeFacts(random: Random, draws: Draws, who: string, partner: string): Fact[] {
  const pets = [draws.next(PET_KINDS), draws.next(PET_KINDS)];
  const petNames = [draws.next(PET_NAMES), draws.next(PET_NAMES)];
  const places = [draws.next(PLACES), draws.next(PLACES)];
  const petStatements = shuffled(random, PET_STATEMENTS);
  const hobby = draws.next(HOBBIES);
  const race = draws.next(RACES);
  const company = draws.next(COMPANIES);
  const role = draws.next(ROLES);
  const city = draws.next(CITIES);
  const relative = pick(random, RELATIVES);
  const relativeName = draws.next(RELATIVE_NAMES);
  const venue = pick(random, VENUES);
  const band = draws.next(BANDS);
  const book = draws.next(BOOKS);
  const dish = draws.next(DISHES);
  const [sport, injury] = draws.next(INJURIES);
  const slots = { who, partner, hobby, race, company, role, city, relative, relativeName, venue, band, book, dish, sport, injury };
  const pet = (index: number): Fact => {
    const petSlots = { ...slots, pet: pets[index], petName: petNames[index] };
    return {
      statement: fill(petStatements[index], petSlots),
      followUps: [
        [fill('Aww! How is the apartment surviving, {who}?', petSlots), fill('Barely, haha. {petName} has already chewed one shoe.', petSlots)],
        ['What made you decide now?', 'I have wanted one for years, and my schedule is calmer these days.'],
      ],
      mentions: [
        [fill('How is {petName} doing, {who}?', petSlots), 'Spoiled rotten, as expected. Sleeps on my pillow now.'],
        [fill('Give {petName} a scratch behind the ears from me!', petSlots), 'Will do! Someone is very demanding about scratches.'],
      ],
      questions: [
        {
          kind: 'single-hop',
          text: fill(pick(random, ['What did {who} name the {pet}?', 'What is the name of the animal {who} adopted?']), petSlots),
        },
        { kind: 'temporal', text: fill(pick(random, ['When did {who} bring {petName} home?', 'When did {who} get a new pet?']), petSlots) },
      ],
      group: { key: 'pets', question: fill('Which pets did {who} adopt this year?', petSlots) },
    };
  };
  const trip = (index: number): Fact => {
    const tripSlots = { ...slots, place: places[index], detail: pick(random, TRIP_DETAILS) };
    return {
      statement: fill(
        pick(random, [
          'I just got back from {place}! {detail}.',
          'We spent last week in {place}, {detail}.',
          'Finally took that holiday to {place}. Honestly, {detail}.',
        ]),
        tripSlots,
      ),
      followUps: [
        ['Jealous! Did you bring back any souvenirs?', 'Just a fridge magnet and about a thousand photos.'],
        [fill('Would you go again, {who}?', tripSlots), 'In a heartbeat. Already looking at flights for next year.'],
      ],
      mentions: [[fill('Still dreaming about {place}, {who}?', tripSlots), 'Every single day. My screensaver is a photo from that trip.']],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['Where did {who} go on vacation?', 'Which place did {who} visit on holiday?']), tripSlots) },
        { kind: 'temporal', text: fill('When did {who} travel to {place}?', tripSlots) },
      ],
      group: { key: 'trips', question: fill('Where has {who} been on holiday lately?', tripSlots) },
    };
  };
  return [
    pet(0),
    pet(1),
    trip(0),
    trip(1),
    {
      statement: fill(
        pick(random, [
          'I got the job! I start at {company} as a {role} on Monday.',
          'So, big change: I accepted an offer at {company}. I will be working as a {role}.',
        ]),
        slots,
      ),
      followUps: [
        ['That is incredible! Are you nervous?', 'A little. New people, new routines. But mostly excited.'],
        [fill('What about your old team, {who}?', slots), 'They threw me a little farewell lunch. I will miss them.'],
      ],
      mentions: [
        [fill('How is the new place treating you, {who}?', slots), 'Long days, but I am learning a ton. No regrets.'],
        [fill('Still loving work, {who}?', slots), 'Most days! The commute is the only downside.'],
      ],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['Where does {who} work now?', 'What does {who} do for a living at {company}?']), slots) },
        { kind: 'temporal', text: fill('When did {who} change jobs?', slots) },
      ],
    },
    {
      statement: fill(
        pick(random, [
          'I signed up for a {hobby} class {place}. First lesson was on Tuesday and I loved it.',
          'New obsession: {hobby}! I joined a weekly group {place}.',
        ]),
        { ...slots, place: pick(random, HOBBY_PLACES) },
      ),
      followUps: [
        ['Oh fun! Is it hard?', 'Harder than it looks. My teacher is very patient with me though.'],
        ['I would never have guessed that for you!', 'Me neither! I wanted something that has nothing to do with screens.'],
      ],
      mentions: [
        [fill('Are you still doing {hobby}, {who}?', slots), 'Every week! I am slowly getting less terrible at it.'],
        [fill('How is the {hobby} going?', slots), 'Slowly but surely. Last session was my best one yet.'],
      ],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['What new hobby did {who} pick up?', 'Which class did {who} sign up for?']), slots) },
        { kind: 'temporal', text: fill('When did {who} start taking {hobby} lessons?', slots) },
      ],
      group: { key: 'together', question: fill('What class or group do {who} and {partner} both go to?', slots) },
    },
    {
      statement: fill(
        pick(random, [
          'I ran my first {race} on Sunday! Finished in {time}, legs are destroyed.',
          'Okay, proud moment: I completed the {race} this weekend in {time}.',
        ]),
        { ...slots, time: pick(random, RACE_TIMES) },
      ),
      followUps: [
        ['Wow! How long did you train for it?', 'About four months of early mornings. Worth it.'],
        ['Are you going to do another one?', 'Ask me again when I can walk down stairs, haha.'],
      ],
      mentions: [[fill('Any more races planned, {who}?', slots), 'Maybe in the spring. My knees need a break first.']],
      questions: [
        { kind: 'single-hop', text: fill('How long did it take {who} to finish the {race}?', slots) },
        { kind: 'temporal', text: fill(pick(random, ['When did {who} run the {race}?', 'When did {who} do that long run?']), slots) },
      ],
    },
    {
      statement: fill(
        pick(random, [
          'We are moving to {city} next month! The new flat has a balcony and everything.',
          'It is official, I am relocating to {city}. Boxes everywhere right now.',
        ]),
        slots,
      ),
      followUps: [
        ['Oh wow, that is far! Why the move?', 'Closer to family, and the rent is honestly better.'],
        [fill('I am going to miss you, {who}!', slots), 'We will still talk all the time, I promise.'],
      ],
      mentions: [[fill('Have you settled in yet, {who}?', slots), 'Almost. I still cannot find the box with my mugs.']],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['Which city did {who} move to?', 'Where is {who} living these days?']), slots) },
        { kind: 'temporal', text: fill('When did {who} decide to relocate?', slots) },
      ],
    },
    {
      statement: fill('My {relative} {relativeName} got married last weekend at {venue}. I cried through the whole ceremony.', slots),
      followUps: [
        ['Aww, that is beautiful. Did you give a speech?', 'I did! My hands were shaking the entire time.'],
        ['How was the food?', 'So good. Three desserts, which is the correct number.'],
      ],
      mentions: [[fill('How are the newlyweds, {who}?', slots), 'Off on their honeymoon, sending us sunny photos to make us jealous.']],
      questions: [
        {
          kind: 'single-hop',
          text: fill(pick(random, ['Whose wedding did {who} go to at {venue}?', 'Who in the family of {who} tied the knot?']), slots),
        },
        { kind: 'temporal', text: fill('When did {relativeName} get married?', slots) },
      ],
    },
    {
      statement: fill(
        pick(random, ['Saw {band} live last night! My ears are still ringing.', 'I went to see {band} play on Friday, best show of my life.']),
        slots,
      ),
      followUps: [['Jealous! What was the best song?', 'The encore. The whole crowd was singing along.']],
      mentions: [],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['Which band did {who} see in concert?', 'Who did {who} watch play live?']), slots) },
        { kind: 'temporal', text: fill('When did {who} go to the concert?', slots) },
      ],
    },
    {
      statement: fill(
        pick(random, ['I am reading {book} right now and I cannot put it down.', 'You have to read {book}. I finished it in two days.']),
        slots,
      ),
      followUps: [['Ooh, what is it about?', 'Hard to explain without spoilers. Just trust me.']],
      mentions: [],
      questions: [{ kind: 'single-hop', text: fill(pick(random, ['What novel did {who} recommend?', 'Which book can {who} not put down?']), slots) }],
    },
    {
      statement: fill("I made my grandmother's {dish} recipe for the first time. It tasted exactly like her kitchen.", slots),
      followUps: [['That is so sweet. Will you share the recipe?', 'Only if you promise to make it for me sometime!']],
      mentions: [],
      questions: [
        {
          kind: 'single-hop',
          text: fill(pick(random, ['What family dish did {who} cook?', "What did {who} make from a grandmother's recipe?"]), slots),
        },
      ],
    },
    {
      statement: fill('I {injury} playing {sport} on Thursday. So now I am stuck on the couch for a while.', slots),
      bad: true,
      followUps: [['Oh no! Does it hurt a lot?', 'Only when I move, which is all the time, haha.']],
      mentions: [[fill('How is the recovery going, {who}?', slots), 'Much better. The doctor says another week of rest.']],
      questions: [
        { kind: 'single-hop', text: fill(pick(random, ['How did {who} get hurt?', 'What happened to {who} while playing {sport}?']), slots) },
        { kind: 'temporal', text: fill('When was {who} injured?', slots) },
      ],
    },
  ];
}

/** A partner's turn taking up the owner's activity: the second half of a "both do" question. */
function sharedActivity(random: Random, owner: Fact): string | null {
  const hobby = HOBBIES.find((candidate) => owner.statement.includes(candidate));
  if (!hobby) return null;
  return pick(random, [
    `Funny story: I tried ${hobby} too after you told me about it, and now I go every Saturday.`,
    `You got me hooked, by the way. I have been doing ${hobby} with a friend for a few weeks now.`,
  ]);
}

/** One conversation of `sessionCount` sessions among `people`, from its own random sequence. */
function conversation(random: Random, index: number, people: string[], sessionCount: number): Conversation {
  const draws = new Draws(random);
  const facts = people.flatMap((who, position) =>
    shuffled(random, lifeFacts(random, draws, who, people[(position + 1) % people.length])).map((fact) => ({ who, fact })),
  );
  // Facts are told over the sessions, a few per session, never two in a row of the same person.
  const order = shuffled(random, facts);
  const sessions: ConversationSession[] = [];
  const told = new Map<Fact, { owner: string; turnId: string; session: number }>();
  const unsaid = new Map<Fact, [string, string][]>();
  const questions: Question[] = [];
  const groupEvidence = new Map<string, { question: string; turns: string[] }>();
  let date = new Date(Date.UTC(2023, between(random, 0, 5), between(random, 1, 28), between(random, 8, 21), between(random, 0, 59)));
  for (let number = 1; number <= sessionCount; number++) {
    const turns: Turn[] = [];
    const say = (speaker: string, text: string) => {
      const turn = { id: `D${number}:${turns.length + 1}`, speaker, text };
      turns.push(turn);
      return turn;
    };
    const others = (speaker: string) => people.filter((person) => person !== speaker);
    const to = (speaker: string) => pick(random, others(speaker));
    const opener = pick(random, people);
    say(opener, fill(pick(random, OPENERS), { to: to(opener) }));
    for (const replier of others(opener)) say(replier, fill(pick(random, OPENER_REPLIES), { to: opener }));
    const tellHere = order.splice(0, Math.ceil(order.length / (sessionCount - number + 1)));
    // Each way of coming back to a fact is said once: people do not repeat a question word for word months apart.
    const earlier = [...told.entries()].filter(([fact]) => (unsaid.get(fact)?.length ?? 0) > 0);
    const mentionsHere = shuffled(random, earlier).slice(0, between(random, 1, 3));
    const blocks: (() => void)[] = [];
    for (const { who, fact } of tellHere) {
      blocks.push(() => {
        const statement = say(who, fact.statement);
        told.set(fact, { owner: who, turnId: statement.id, session: number });
        unsaid.set(fact, shuffled(random, fact.mentions));
        const listener = to(who);
        say(listener, fill(pick(random, fact.bad ? SYMPATHY : REACTIONS), { to: who }));
        for (const [asked, answer] of shuffled(random, fact.followUps).slice(0, between(random, 1, fact.followUps.length))) {
          say(pick(random, others(who)), asked);
          say(who, answer);
        }
        for (const question of fact.questions) questions.push({ ...question, evidence: [statement.id] });
        if (fact.group) {
          const key = `${who} ${fact.group.key}`;
          const group = groupEvidence.get(key) ?? { question: fact.group.question, turns: [] };
          group.turns.push(statement.id);
          groupEvidence.set(key, group);
        }
      });
    }
    for (const [fact, { owner }] of mentionsHere) {
      blocks.push(() => {
        const [asked, reply] = unsaid.get(fact)!.pop()!;
        say(pick(random, others(owner)), asked);
        say(owner, reply);
        // A partner who took up the owner's activity says so once: the other half of "both do".
        const partner = others(owner)[0];
        const key = `${owner} together`;
        const group = groupEvidence.get(key);
        if (fact.group?.key === 'together' && group && group.turns.length === 1) {
          const text = sharedActivity(random, fact);
          if (text) group.turns.push(say(partner, text).id);
        }
      });
    }
    for (let chat = between(random, 6, 12); chat > 0; chat--) {
      blocks.push(() => {
        const speaker = pick(random, people);
        say(speaker, fill(pick(random, SMALL_TALK), { to: to(speaker) }));
        const replier = to(speaker);
        say(replier, fill(pick(random, SMALL_REPLIES), { to: speaker }));
      });
    }
    for (const block of shuffled(random, blocks)) block();
    const closer = pick(random, people);
    say(closer, fill(pick(random, CLOSINGS), { to: to(closer) }));
    say(to(closer), fill(pick(random, CLOSING_REPLIES), { to: closer }));
    sessions.push({ date, turns });
    date = new Date(date.getTime() + between(random, 3, 21) * 86_400_000 + between(random, -300, 300) * 60_000);
  }
  for (const group of groupEvidence.values()) {
    if (group.turns.length >= 2) questions.push({ kind: 'multi-hop', text: group.question, evidence: group.turns });
  }
  return { name: `generated ${index + 1} (${people.join(', ')})`, speakers: people, sessions, questions };
}

/**
 * `count` conversations of the seed: alternately two and three people, 24 to 30 sessions each
 * (about 500 to 700 turns). The same seed always gives the same conversations.
 */
export function generateConversations(seed: number, count: number): Conversation[] {
  const random = seededRandom(seed * 7919 + 17);
  const names = shuffled(random, NAMES);
  return Array.from({ length: count }, (_, index) => {
    const people = names.splice(0, index % 2 === 0 ? 2 : 3);
    return conversation(random, index, people, between(random, 24, 30));
  });
}
