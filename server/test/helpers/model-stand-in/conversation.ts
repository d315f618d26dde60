import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { contentText, textTokens } from './prompt-tokens';

/** What a model takes from the messages it is given: who asked what, and the ids it was shown. */
export interface Conversation {
  firstUserText: string;
  lastUserText: string;
  /** Every message's text in order, for finding what the conversation mentions. */
  allText: string;
  /** Session ids the messages name, in order of their latest mention. */
  sessionIds: string[];
  /** Event ids the messages name, in order of first mention. */
  eventIds: string[];
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** An id is only taken for what its label says it is: `"sessionId":"…"`, `session …`, `session_id: …`. */
const SESSION_ID = new RegExp(`\\bsession(?:[ _-]?id)?\\b["'\`]?\\s*[:=]?\\s*["'\`]?(${UUID})`, 'gi');
/** `"eventId":"…"`, `fromEventId …`, `event …`, and a bare `"id":"…"` as read_events lists events. */
const EVENT_ID = new RegExp(`\\b(?:(?:from|to)[ _-]?event[ _-]?id|event(?:[ _-]?id)?|id)\\b["'\`]?\\s*[:=]?\\s*["'\`]?(${UUID})`, 'gi');

export function readConversation(messages: ChatCompletionMessageParam[]): Conversation {
  const userTexts = messages.filter((message) => message.role === 'user').map((message) => contentText(message.content));
  const texts = messages.map((message) => {
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => (call.type === 'function' ? call.function.arguments : '')) : [];
    return [contentText(message.content), ...calls].join('\n');
  });
  const allText = texts.join('\n');
  const sessionIds: string[] = [];
  for (const [, id] of allText.matchAll(SESSION_ID)) {
    const lower = id.toLowerCase();
    if (sessionIds.includes(lower)) sessionIds.splice(sessionIds.indexOf(lower), 1);
    sessionIds.push(lower);
  }
  const eventIds: string[] = [];
  for (const [, id] of allText.matchAll(EVENT_ID)) {
    const lower = id.toLowerCase();
    if (!eventIds.includes(lower) && !sessionIds.includes(lower)) eventIds.push(lower);
  }
  return {
    firstUserText: userTexts[0] ?? '',
    lastUserText: userTexts[userTexts.length - 1] ?? '',
    allText,
    sessionIds,
    eventIds,
  };
}

/** The first `count` words of `text`, on one line. */
export function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.slice(0, count).join(' ') + (words.length > count ? '…' : '');
}

/** The last line of `text` that has words: where a message usually puts its question. */
function lastLine(text: string): string {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).pop() ?? '';
}

/** The longest distinct words of `text`: what an answer about it would keep coming back to. */
function keywords(text: string, count: number): string[] {
  // Words of letters only: ids and numbers are not what an answer talks about.
  const words = [...new Set(text.toLowerCase().match(/(?<![\p{L}\p{N}-])\p{L}[\p{L}']{3,}(?![\p{L}\p{N}-])/gu) ?? [])];
  return words.sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, count);
}

const SENTENCES: ((a: string, b: string) => string)[] = [
  (a, b) => `The part that matters most here is ${a}, and it depends on ${b}.`,
  (a) => `I would start with ${a} and check the result before going further.`,
  (a, b) => `If ${a} changes, ${b} has to be looked at again.`,
  (a) => `That keeps the work on ${a} small and easy to verify.`,
  (a, b) => `One caution: ${b} is easy to get wrong when ${a} is rushed.`,
  () => 'Tell me if you want the details of any step.',
];

/**
 * A plain answer to `question` of `tokens` tokens: it names the question and talks about its
 * words, as an answer does, without claiming anything in particular.
 */
export function replyText(question: string, tokens: number): string {
  if (tokens <= 0) return '';
  const asked = lastLine(question);
  const topics = keywords(asked, 6);
  const [a, b] = [topics[0] ?? 'the question', topics[1] ?? topics[0] ?? 'the details'];
  const parts = [asked ? `About "${firstWords(asked, 10)}": here is how I see it.` : 'Here is how I see it.'];
  for (let index = 0; parts.join(' ').length < tokens * 8; index += 1) {
    const sentence = SENTENCES[index % SENTENCES.length];
    const shift = Math.floor(index / SENTENCES.length) % Math.max(1, topics.length);
    parts.push(sentence(topics[shift] ?? a, topics[(shift + 1) % Math.max(1, topics.length)] ?? b));
  }
  return cutToTokens(parts.join(' '), tokens);
}

/** The words of `text` up to `tokens` tokens; a word too long for what is left is passed over. */
export function cutToTokens(text: string, tokens: number): string {
  let kept = '';
  let count = 0;
  for (const piece of text.match(/\s*\S+/g) ?? []) {
    // A space before a word always starts a new token, so a text's count is its words' counts.
    const cost = textTokens(piece);
    if (count + cost > tokens) continue;
    kept += piece;
    count += cost;
    if (count === tokens) break;
  }
  return kept.trimStart();
}
