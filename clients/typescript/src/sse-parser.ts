export interface SseMessage {
  event: string;
  data: string;
  /** The last `id:` seen on this stream (or given at construction), as EventSource keeps it. */
  lastEventId: string;
}

/**
 * Server-sent-events framing as the HTML standard defines it ("Interpreting an event stream"): lines end in CRLF,
 * LF or CR (a CR may end one chunk and its LF start the next), `:` lines are comments (heartbeats), `data:` lines
 * join with LF, `id:` sets the last event id (one containing NUL is ignored), `retry:` takes digits only, and a
 * blank line dispatches. Written here rather than using EventSource because EventSource cannot send a bearer header.
 * Feed it decoded text (TextDecoder strips the BOM); an event left unterminated when the stream ends is dropped.
 */
export class SseParser {
  lastEventId: string;
  /** The reconnection time the server asked for with `retry:`, if it did. */
  retryMs: number | undefined;
  private idBuffer: string;
  private partial = '';
  private skipLineFeed = false;
  private data: string[] = [];
  private eventType = '';

  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
    this.idBuffer = lastEventId;
  }

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.skipLineFeed && text.length > 0) {
      if (text.startsWith('\n')) text = text.slice(1);
      this.skipLineFeed = false;
    }
    const messages: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (char !== '\n' && char !== '\r') continue;
      const message = this.line(this.partial + text.slice(start, i));
      this.partial = '';
      if (message) messages.push(message);
      if (char === '\r') {
        if (i + 1 === text.length) this.skipLineFeed = true;
        else if (text[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.partial += text.slice(start);
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    this.lastEventId = this.idBuffer;
    const data = this.data;
    const event = this.eventType || 'message';
    this.data = [];
    this.eventType = '';
    return data.length === 0 ? undefined : { event, data: data.join('\n'), lastEventId: this.lastEventId };
  }
}
