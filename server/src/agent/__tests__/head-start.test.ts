import type { ModelReply } from '../agent';
import type { TurnStart } from '../turn/turn-context';
import { HeadStart } from '../turn/head-start';

const START = { messages: [] } as unknown as TurnStart;
const REPLY: ModelReply = { text: 'Hello there', toolCalls: [] } as unknown as ModelReply;

/** A model call that streams what the test pushes and ends when told, or fails when aborted. */
function scriptedCall() {
  let push: (delta: string) => void = () => undefined;
  let end: () => void = () => undefined;
  let callSignal: AbortSignal | null = null;
  const call = async (signal: AbortSignal, onTextDelta: (delta: string) => void) => {
    callSignal = signal;
    push = onTextDelta;
    const reply = new Promise<ModelReply>((resolve, reject) => {
      end = () => resolve(REPLY);
      signal.addEventListener('abort', () => reject(signal.reason));
    });
    return { start: START, reply };
  };
  return { call, push: (delta: string) => push(delta), end: () => end(), signal: () => callSignal! };
}

describe("a successor's first model call begun before its continuation commits", () => {
  it('holds what streams before the turn takes it over, then passes on the rest in order', async () => {
    const model = scriptedCall();
    const headStart = new HeadStart<TurnStart>(model.call);
    expect(await headStart.start()).toBe(START);
    model.push('Hello');
    model.push(' there');

    const received: string[] = [];
    const reply = headStart.takeOver(new AbortController().signal, (delta) => received.push(delta));
    await Promise.resolve();
    expect(received).toEqual(['Hello', ' there']);
    model.push(', again');
    model.end();
    expect(await reply).toBe(REPLY);
    expect(received).toEqual(['Hello', ' there', ', again']);
  });

  it('stops the call when the turn that took it over is aborted', async () => {
    const model = scriptedCall();
    const headStart = new HeadStart(model.call);
    const turn = new AbortController();
    const reply = headStart.takeOver(turn.signal, () => undefined);
    turn.abort(new Error('cancelled by the user'));
    await expect(reply).rejects.toThrow('cancelled by the user');
    expect(model.signal().aborted).toBe(true);
  });

  it('is stopped when its continuation fails, and its failure then goes unreported rather than unhandled', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const model = scriptedCall();
      const headStart = new HeadStart(model.call);
      await headStart.start();
      headStart.cancel(new Error('the commit failed'));
      expect(model.signal().aborted).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
