/**
 * Test helper for the council and the plain-English register: full vendor replies (Anthropic Messages, OpenAI Chat
 * Completions) with usage numbers the test chooses, so a test can price exactly what the service was charged, and a
 * reader of the prompt each vendor received.
 */
import { calendarAnalystReply, type AnalystItemOverride } from './analyst-replies';
import type { FakeReply, RecordedRequest } from './fake-provider-servers';

export interface ChosenUsage {
  input: number;
  output: number;
}

/** An Anthropic Messages reply carrying `text` and the chosen usage. */
export function anthropicMessage(request: RecordedRequest, text: string, usage: ChosenUsage): FakeReply {
  const body = request.body as { model: string };
  return {
    json: {
      id: 'msg_council',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

/** An OpenAI Chat Completions reply carrying `text` and the chosen usage. */
export function openaiChat(request: RecordedRequest, text: string, usage: ChosenUsage): FakeReply {
  const body = request.body as { model: string };
  return {
    json: {
      id: 'chatcmpl-council',
      object: 'chat.completion',
      created: 1735689600,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    },
  };
}

/** The system prompt and the user prompt of an Anthropic or OpenAI chat request. */
export function promptsOf(request: RecordedRequest): { system: string; prompt: string; model: string } {
  const body = request.body as { model: string; system?: string; messages: Array<{ role: string; content: string }> };
  const system = body.system ?? body.messages.find((m) => m.role === 'system')?.content ?? '';
  const prompt = body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  return { system, prompt, model: body.model };
}

/** Plays a council seat's analyst: `override(index)` changes or omits the candidate at that position. */
export function analystReply(prompt: string, impact: string, override?: (index: number) => AnalystItemOverride): string {
  return calendarAnalystReply(prompt, { impact, override, implications: 'Prepare the change programme.' });
}

/** The ids of the items a plain-English register prompt lists (`- id <id>:` lines). */
export function registerItemIds(prompt: string): string[] {
  return [...prompt.matchAll(/^- id (\S+):/gm)].map((m) => m[1]);
}
