/** An in-process event target that also tells how many listeners each topic has. */
export class CountingEventTarget extends EventTarget {
  private readonly listeners = new Map<string, number>();

  addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.listeners.set(args[0], (this.listeners.get(args[0]) ?? 0) + 1);
    super.addEventListener(...args);
  }

  removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    // A topic nobody listens to any more is forgotten: the map holds only topics with listeners.
    const remaining = (this.listeners.get(args[0]) ?? 0) - 1;
    if (remaining > 0) this.listeners.set(args[0], remaining);
    else this.listeners.delete(args[0]);
    super.removeEventListener(...args);
  }

  /** The event types something listens to now. */
  protected listenedTypes(): string[] {
    return [...this.listeners].filter(([, count]) => count > 0).map(([type]) => type);
  }

  /** Whether anything listens to one event type, e.g. `SESSION_CONTINUED:<sessionId>`. */
  protected hasListeners(type: string): boolean {
    return (this.listeners.get(type) ?? 0) > 0;
  }

  /** Listeners of one topic and id, e.g. `listenerCount('SESSION_CONTINUED', sessionId)`. */
  listenerCount(topic: string, id: string): number {
    return this.listeners.get(`${topic}:${id}`) ?? 0;
  }
}
