import { seededRandom } from './corpus';
import { Draws, HOBBIES, Random, between, fill, lifeFacts, pick, shuffled, type Fact, type QuestionKind } from './conversation-facts';

export type { QuestionKind };

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
