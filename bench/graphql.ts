import net from 'node:net';

interface Response {
  status: number;
  text: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * One kept-alive HTTP/1.1 connection carrying one request at a time. The load generator shares
 * the machine's cores with the server it measures, so it writes requests and reads responses by
 * hand, as small load tools do: a request is one write, a response is read up to its
 * Content-Length, which the server always sends.
 */
class Connection {
  private readonly socket: net.Socket;
  private received: Buffer = Buffer.alloc(0);
  private waiting: { resolve(response: Response): void; reject(error: Error): void } | null = null;
  closed = false;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
      this.answer();
    });
    const fail = (error: Error) => {
      this.closed = true;
      this.waiting?.reject(error);
      this.waiting = null;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new ConnectionClosed()));
  }

  send(request: string): Promise<Response> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  /** Resolves the waiting request once its whole response is in. */
  private answer(): void {
    const headerEnd = this.received.indexOf(HEADER_END);
    if (headerEnd < 0 || !this.waiting) return;
    const head = this.received.toString('latin1', 0, headerEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.waiting.reject(new Error(`A response without Content-Length: ${head.split('\r\n', 1)[0]}`));
      this.waiting = null;
      return;
    }
    const end = headerEnd + HEADER_END.length + Number(length[1]);
    if (this.received.length < end) return;
    const text = this.received.toString('utf8', headerEnd + HEADER_END.length, end);
    this.received = this.received.subarray(end);
    const waiting = this.waiting;
    this.waiting = null;
    waiting.resolve({ status: Number(head.slice(9, 12)), text });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

/** The server closed the connection, e.g. when it stayed idle past the server's keep-alive timeout. */
class ConnectionClosed extends Error {
  constructor() {
    super('The server closed the connection');
  }
}

/** GraphQL over HTTP with an API key, as any third-party client speaks it, on kept-alive connections. */
export class GraphQLClient {
  private readonly idle: Connection[] = [];
  private readonly endpoint: URL;
  private readonly head: string;

  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {
    this.endpoint = new URL('/graphql', baseUrl);
    this.head =
      `POST /graphql HTTP/1.1\r\nHost: ${this.endpoint.host}\r\nContent-Type: application/json\r\n` +
      `Authorization: Bearer ${apiKey}\r\nConnection: keep-alive\r\n`;
  }

  /** The data of a response that must have no errors. */
  async data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const { status, text } = await this.post(JSON.stringify({ query, variables }));
    const body = JSON.parse(text) as { data?: T; errors?: unknown[] };
    if (body.errors?.length || !body.data) {
      throw new Error(`GraphQL request failed (HTTP ${status}): ${JSON.stringify(body.errors)}`);
    }
    return body.data;
  }

  private async post(payload: string): Promise<Response> {
    const request = `${this.head}Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
    let connection = this.idle.pop();
    // One the server closed while it was idle is of no use any more.
    while (connection?.closed) connection = this.idle.pop();
    const reused = connection !== undefined;
    connection ??= new Connection(this.endpoint.hostname, Number(this.endpoint.port));
    try {
      const response = await connection.send(request);
      this.idle.push(connection);
      return response;
    } catch (error) {
      connection.close();
      // A kept-alive connection the server had just closed (or reset, when the request met the
      // close on the way): the request never reached it.
      const reset = (error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as NodeJS.ErrnoException).code === 'EPIPE';
      if (reused && (error instanceof ConnectionClosed || reset)) return this.post(payload);
      throw error;
    }
  }

  /** Closes the kept-alive connections, so that the server can stop at once. */
  close(): void {
    for (const connection of this.idle.splice(0)) connection.close();
  }
}
