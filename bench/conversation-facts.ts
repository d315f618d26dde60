/**
 * The life events the recall benchmark's friends tell each other (a pet adopted, a trip, a new job,
 * a class, a race, a move, a wedding, a concert, a book, a dish, an injury), each with its
 * follow-ups, later mentions and the questions asked about it months later in other words.
 */

export type QuestionKind = 'single-hop' | 'temporal' | 'multi-hop';

export type Random = () => number;

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
export const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

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
export const HOBBIES = ['pottery', 'salsa dancing', 'rock climbing', 'watercolor painting', 'woodworking', 'beekeeping', 'choir singing', 'fencing'];
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

/** One thing in a speaker's life: told once, asked about later, and mentioned in passing in between. */
export interface Fact {
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

export const fill = (text: string, slots: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, key: string) => slots[key] ?? whole);

/** Values drawn for one conversation, none twice: two people never share a pet's name or a trip. */
export class Draws {
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

/** The values one person's facts are written with. */
type Slots = Record<string, string>;

/** A pet adopted. */
function petFact(random: Random, slots: Slots, pet: string, petName: string, statement: string): Fact {
  const petSlots = { ...slots, pet, petName };
  return {
    statement: fill(statement, petSlots),
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
}
/** A holiday. */
function tripFact(random: Random, slots: Slots, place: string): Fact {
  const tripSlots = { ...slots, place, detail: pick(random, TRIP_DETAILS) };
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
}

/** A new job. */
function jobFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A class or group taken up. */
function hobbyFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A race run. */
function raceFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A move to another city. */
function moveFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A relative's wedding. */
function weddingFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A concert. */
function concertFact(random: Random, slots: Slots): Fact {
  return {
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
  };
}

/** A book recommended. */
function bookFact(random: Random, slots: Slots): Fact {
  return {
    statement: fill(
      pick(random, ['I am reading {book} right now and I cannot put it down.', 'You have to read {book}. I finished it in two days.']),
      slots,
    ),
    followUps: [['Ooh, what is it about?', 'Hard to explain without spoilers. Just trust me.']],
    mentions: [],
    questions: [{ kind: 'single-hop', text: fill(pick(random, ['What novel did {who} recommend?', 'Which book can {who} not put down?']), slots) }],
  };
}

/** A family recipe cooked. */
function dishFact(random: Random, slots: Slots): Fact {
  return {
    statement: fill("I made my grandmother's {dish} recipe for the first time. It tasted exactly like her kitchen.", slots),
    followUps: [['That is so sweet. Will you share the recipe?', 'Only if you promise to make it for me sometime!']],
    mentions: [],
    questions: [
      {
        kind: 'single-hop',
        text: fill(pick(random, ['What family dish did {who} cook?', "What did {who} make from a grandmother's recipe?"]), slots),
      },
    ],
  };
}

/** An injury: bad news. */
function injuryFact(random: Random, slots: Slots): Fact {
  return {
    statement: fill('I {injury} playing {sport} on Thursday. So now I am stuck on the couch for a while.', slots),
    bad: true,
    followUps: [['Oh no! Does it hurt a lot?', 'Only when I move, which is all the time, haha.']],
    mentions: [[fill('How is the recovery going, {who}?', slots), 'Much better. The doctor says another week of rest.']],
    questions: [
      { kind: 'single-hop', text: fill(pick(random, ['How did {who} get hurt?', 'What happened to {who} while playing {sport}?']), slots) },
      { kind: 'temporal', text: fill('When was {who} injured?', slots) },
    ],
  };
}

/** The facts of one person's months. */
export function lifeFacts(random: Random, draws: Draws, who: string, partner: string): Fact[] {
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
  const slots: Slots = { who, partner, hobby, race, company, role, city, relative, relativeName, venue, band, book, dish, sport, injury };
  return [
    petFact(random, slots, pets[0], petNames[0], petStatements[0]),
    petFact(random, slots, pets[1], petNames[1], petStatements[1]),
    tripFact(random, slots, places[0]),
    tripFact(random, slots, places[1]),
    jobFact(random, slots),
    hobbyFact(random, slots),
    raceFact(random, slots),
    moveFact(random, slots),
    weddingFact(random, slots),
    concertFact(random, slots),
    bookFact(random, slots),
    dishFact(random, slots),
    injuryFact(random, slots),
  ];
}
