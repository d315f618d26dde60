/** Topics as `name: [id, payload]`, the shape type-graphql's examples give them. */
export type TopicMap = Record<string, [id: string, payload: unknown]>;

/** Publishing to and subscribing to topics, each keyed by an id (a session's, a run's, an account's). */
export interface TopicPubSub<TTopics extends TopicMap> {
  /** Hands `payload`, as the same object, to every subscriber of the topic and id in this process. */
  publish<TTopic extends keyof TTopics & string>(topic: TTopic, ...[id, payload]: TTopics[TTopic]): void;
  /** What is published to the topic and id from now on, in order, until `return` is called. */
  subscribe<TTopic extends keyof TTopics & string>(topic: TTopic, id: TTopics[TTopic][0]): AsyncIterableIterator<TTopics[TTopic][1]>;
}

/**
 * Events of one type as an async iterator: a listener and a queue, no more. One subscriber each:
 * a streamed answer watched by a thousand of them pushes a thousand times per batch, so the
 * subscription does the least (Repeater, which graphql-yoga's pub/sub uses, did several times this).
 */
function eventsOfType<T>(target: EventTarget, type: string): AsyncIterableIterator<T> {
  const queued: T[] = [];
  let waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;
  let ended = false;
  const listener = (event: Event) => {
    const payload = (event as CustomEvent<T>).detail;
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve({ done: false, value: payload });
    } else queued.push(payload);
  };
  const end = () => {
    if (!ended) target.removeEventListener(type, listener);
    ended = true;
    queued.length = 0;
    waiting?.({ done: true, value: undefined });
    waiting = null;
  };
  target.addEventListener(type, listener);
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    next() {
      if (queued.length > 0) return Promise.resolve({ done: false, value: queued.shift()! });
      if (ended) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => (waiting = resolve));
    },
    return() {
      end();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw(error: unknown) {
      end();
      return Promise.reject(error);
    },
  };
  return iterator;
}

/** Topics over `target`, which may carry them to other processes (see the event targets beside this). */
export function createTopicPubSub<TTopics extends TopicMap>(target: EventTarget): TopicPubSub<TTopics> {
  return {
    publish(topic, id, payload) {
      target.dispatchEvent(new CustomEvent(`${topic}:${id}`, { detail: payload }));
    },
    subscribe: (topic, id) => eventsOfType(target, `${topic}:${id}`),
  };
}
