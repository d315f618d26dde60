import type { ModelReply } from '../agent';

/** A turn's start and its first model call, begun with the signal and text listener given. */
export type FirstCall<Start> = (signal: AbortSignal, onTextDelta: (delta: string) => void) => Promise<{ start: Start; reply: Promise<ModelReply> }>;

/**
 * A successor's first model call, sent while the continuation that creates the successor commits:
 * the model starts on it a round trip sooner. Nothing of it is seen before the commit succeeds:
 * the text it streams is held until the successor's turn takes it over (which a worker does only
 * once its continuation committed), and a continuation that fails cancels it.
 */
export class HeadStart<Start> {
  private readonly controller = new AbortController();
  private held: string[] = [];
  private onTextDelta: ((delta: string) => void) | null = null;
  private readonly first: ReturnType<FirstCall<Start>>;

  constructor(call: FirstCall<Start>) {
    this.first = call(this.controller.signal, (delta) => (this.onTextDelta ? this.onTextDelta(delta) : this.held.push(delta)));
    // Whoever takes it over reports how it ends; a call cancelled unread fails with nobody to tell.
    this.first.then(({ reply }) => reply.catch(() => undefined)).catch(() => undefined);
  }

  /** The successor's turn, as the call was made for it. */
  async start(): Promise<Start> {
    return (await this.first).start;
  }

  /** The call's reply: the text streamed so far is passed to `onTextDelta` at once, the rest as it comes; `signal` aborts it. */
  async takeOver(signal: AbortSignal, onTextDelta: (delta: string) => void): Promise<ModelReply> {
    if (signal.aborted) this.cancel(signal.reason);
    else signal.addEventListener('abort', () => this.cancel(signal.reason), { once: true });
    const { reply } = await this.first;
    for (const delta of this.held) onTextDelta(delta);
    this.held = [];
    this.onTextDelta = onTextDelta;
    return reply;
  }

  /** Stops the call, if it is still under way. */
  cancel(reason?: unknown): void {
    this.controller.abort(reason);
  }
}
