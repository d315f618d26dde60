/**
 * A reproducible multi-topic conversation with planted facts, each needed much later by a request
 * that names it in other words. Seeded: the same seed always gives the same corpus.
 *
 * Facts pair a system with one of five attributes (where it writes, how often it runs, who owns
 * it, its rate limit, how long it keeps logs). The request for a fact names the system a little
 * differently and asks in other words, sharing with the fact the attribute's noun or verb but not
 * the sentence ("the nightly export job writes to the eu-west bucket" and, much later, "which
 * bucket does the nightly export output land in?"). Chatter mentions the same systems without
 * stating the facts, about eighteen times each, so a request's words also match many events that
 * do not answer it. A request sharing no word with its fact but the system's name would be found
 * only by chance among those: lexical search cannot tell them apart, and this corpus does not pretend otherwise.
 */

/** A small, fast, seedable generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Systems as a fact names them, and as a request later does. */
const SYSTEMS: [stated: string, asked: string][] = [
  ['nightly export job', 'nightly export'],
  ['billing reconciliation service', 'billing reconciler'],
  ['search indexer', 'indexer for search'],
  ['invoice renderer', 'invoice rendering'],
  ['session replay collector', 'replay collector'],
  ['fraud scoring pipeline', 'fraud scoring'],
  ['thumbnail generator', 'thumbnail service'],
  ['audit log shipper', 'audit shipper'],
  ['currency rate fetcher', 'currency rates job'],
  ['email digest sender', 'email digests'],
  ['warehouse loader', 'loader for the warehouse'],
  ['password reset mailer', 'password reset emails'],
  ['inventory sync worker', 'inventory sync'],
  ['recommendation trainer', 'recommendation training'],
  ['webhook dispatcher', 'webhook dispatch'],
  ['pdf archiver', 'archiving of pdfs'],
  ['metrics rollup task', 'metrics rollups'],
  ['geo lookup cache', 'geo cache'],
  ['customer churn report', 'churn report'],
  ['backup verifier', 'backup verification'],
  ['feature flag syncer', 'feature flag sync'],
  ['ledger compactor', 'ledger compaction'],
  ['video transcoder', 'transcoding of videos'],
  ['sms gateway bridge', 'sms bridge'],
  ['tax table updater', 'tax tables update'],
  ['partner feed importer', 'partner feed import'],
  ['payroll exporter', 'payroll export'],
  ['shipping label printer', 'shipping labels'],
  ['support ticket classifier', 'ticket classification'],
  ['dns record auditor', 'dns audit'],
  ['license key issuer', 'license keys'],
  ['calendar reminder job', 'calendar reminders'],
  ['map tile renderer', 'map tiles'],
  ['clickstream aggregator', 'clickstream aggregation'],
  ['certificate renewer', 'certificate renewal'],
  ['loyalty points accrual', 'loyalty points'],
  ['price change notifier', 'price change notices'],
  ['refund processor', 'refund processing'],
  ['onboarding survey mailer', 'onboarding survey'],
  ['usage meter', 'usage metering'],
  ['contract signer', 'contract signing'],
  ['translation memory sync', 'translation sync'],
  ['anomaly detector', 'anomaly detection'],
  ['catalog image optimizer', 'image optimization for the catalog'],
  ['queue depth monitor', 'queue monitor'],
  ['gdpr erasure worker', 'gdpr erasure'],
  ['chat transcript archiver', 'chat archiving'],
  ['stock level forecaster', 'stock forecasting'],
  ['access review reminder', 'access reviews'],
  ['sitemap builder', 'sitemap generation'],
];

const BUCKETS = ['eu-west', 'us-east', 'ap-south', 'cold-archive', 'analytics-raw', 'sa-east', 'eu-central', 'backup-vault'];
const SCHEDULES = ['fifteen minutes', 'two hours', 'six hours', 'night at three', 'Sunday', 'hour on the hour', 'ninety minutes', 'weekday morning'];
const TEAMS = ['payments', 'platform', 'growth', 'data', 'trust and safety', 'infrastructure', 'mobile', 'finance tooling'];
const LIMITS = ['forty', 'two hundred', 'five hundred', 'twelve', 'eighty', 'one thousand', 'sixty', 'three hundred'];
const RETENTION = ['thirty', 'ninety', 'seven', 'three hundred sixty five', 'fourteen', 'sixty', 'one hundred eighty', 'forty five'];

interface Attribute {
  fact(system: string, value: string): string;
  request(system: string): string;
  values: string[];
}

const ATTRIBUTES: Attribute[] = [
  {
    fact: (system, value) => `For the record: the ${system} writes its output to the ${value} bucket.`,
    request: (system) => `Which bucket does the ${system} output land in?`,
    values: BUCKETS,
  },
  {
    fact: (system, value) => `We agreed the ${system} runs every ${value}.`,
    request: (system) => `How often does the ${system} run these days?`,
    values: SCHEDULES,
  },
  {
    fact: (system, value) => `The ${system} is owned by the ${value} team from now on.`,
    request: (system) => `Which team owns the ${system} now?`,
    values: TEAMS,
  },
  {
    fact: (system, value) => `Note that the ${system} is capped at ${value} requests per second.`,
    request: (system) => `How many requests per second may the ${system} make?`,
    values: LIMITS,
  },
  {
    fact: (system, value) => `Decision: the ${system} keeps its logs for ${value} days.`,
    request: (system) => `For how many days are the ${system} logs kept?`,
    values: RETENTION,
  },
];

const CHATTER = [
  (system: string) => `The ${system} dashboard looked odd this morning, I will check it later.`,
  (system: string) => `Did anyone touch the ${system} config? A deploy went out yesterday.`,
  (system: string) => `Let us add an alert for the ${system} before the holidays.`,
  (system: string) => `I paired with Sam on the ${system} tests, they are flaky again.`,
  (system: string) => `The ${system} needs a short design note, who wants to write it?`,
  () => 'Lunch is at noon today, the usual place.',
  () => 'Can we move the weekly sync to Thursday?',
  () => 'Reminder: the quarterly planning doc is due Friday.',
  () => 'Thanks, that works for me.',
  () => 'I will be out on Monday, ping me on chat if something breaks.',
  () => 'The staging environment is slow again, probably the shared database.',
  () => 'Good catch, I missed that in review.',
];

export interface PlantedFact {
  /** The exact sentence planted in the conversation. */
  text: string;
  /** The value a context must hold for the fact to count as carried. */
  value: string;
  /** The later request that needs it, in other words. */
  request: string;
  /** Which session of the lineage holds it (0 = the origin), and its index among that session's messages. */
  session: number;
  index: number;
}

export interface Corpus {
  /** The messages of each session of the lineage, oldest first. */
  sessions: string[][];
  facts: PlantedFact[];
}

/**
 * `sessionCount` sessions of `messagesPerSession` messages, with one fact for each system placed
 * at random positions in all but the last session (the requests come later). Chatter is drawn
 * with a fact's system about a third of the time.
 */
export function generateCorpus(seed: number, sessionCount = 10, messagesPerSession = 220): Corpus {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sessions = Array.from({ length: sessionCount }, () =>
    Array.from({ length: messagesPerSession }, () => {
      const line = pick(CHATTER);
      return line(pick(SYSTEMS)[0]);
    }),
  );
  const taken = new Set<string>();
  const facts = SYSTEMS.map(([stated, asked], index) => {
    const attribute = ATTRIBUTES[index % ATTRIBUTES.length];
    const value = pick(attribute.values);
    let session: number;
    let position: number;
    do {
      session = Math.floor(random() * (sessionCount - 1));
      position = Math.floor(random() * messagesPerSession);
    } while (taken.has(`${session}:${position}`));
    taken.add(`${session}:${position}`);
    const text = attribute.fact(stated, value);
    sessions[session][position] = text;
    return { text, value, request: attribute.request(asked), session, index: position };
  });
  return { sessions, facts };
}
