interface Frame {
  /** Keys from the root to this object; null inside an array, where nothing is watched. */
  path: string[] | null;
  array: boolean;
  key: string | null;
  expectingKey: boolean;
}

/**
 * The string values at `paths` of a JSON object that arrives in pieces (a model's streamed tool
 * call), each as soon as its closing quote has arrived: what follows it is not needed, so work
 * that depends only on them can start before the rest is written. Reads each character once.
 */
export class StreamedStrings {
  private text = '';
  private position = 0;
  private readonly frames: Frame[] = [];
  /** Where the string being read opened, or -1. */
  private stringStart = -1;
  private escaped = false;
  private readonly found = new Map<string, string>();

  constructor(private readonly paths: string[][]) {}

  /** Reads `piece`; true once every watched value is whole. */
  push(piece: string): boolean {
    if (this.complete) return true;
    this.text += piece;
    for (; this.position < this.text.length; this.position += 1) {
      const char = this.text[this.position];
      if (this.stringStart >= 0) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.closeString();
        continue;
      }
      const frame = this.frames[this.frames.length - 1];
      if (char === '"') this.stringStart = this.position;
      else if (char === '{' || char === '[') this.frames.push({ path: childPath(frame), array: char === '[', key: null, expectingKey: char === '{' });
      else if (char === '}' || char === ']') this.frames.pop();
      else if (char === ',' && frame && !frame.array) frame.expectingKey = true;
    }
    return this.complete;
  }

  /** The value at `path`, once whole. */
  value(path: string[]): string | undefined {
    return this.found.get(path.join('\u0000'));
  }

  get complete(): boolean {
    return this.found.size === this.paths.length;
  }

  private closeString(): void {
    const raw = this.text.slice(this.stringStart, this.position + 1);
    this.stringStart = -1;
    const frame = this.frames[this.frames.length - 1];
    if (!frame || frame.array) return;
    let text: string;
    try {
      text = JSON.parse(raw) as string;
    } catch {
      return;
    }
    if (frame.expectingKey) {
      frame.key = text;
      frame.expectingKey = false;
      return;
    }
    if (!frame.path) return;
    const path = [...frame.path, frame.key ?? ''];
    if (this.paths.some((watched) => watched.length === path.length && watched.every((key, index) => key === path[index]))) {
      this.found.set(path.join('\u0000'), text);
    }
  }
}

function childPath(parent: Frame | undefined): string[] | null {
  if (!parent) return [];
  return parent.array || !parent.path ? null : [...parent.path, parent.key ?? ''];
}
