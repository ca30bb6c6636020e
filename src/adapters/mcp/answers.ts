import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiAnswer } from './api-caller.ts';

const text = (body: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: body }],
  ...(isError ? { isError: true } : {}),
});

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** What a model reads of a success: the record, or a page's records with its meta; anything else (a CSV) as sent. */
function success(answer: ApiAnswer): CallToolResult {
  const envelope = parsed(answer.body) as { data?: unknown; meta?: unknown; warnings?: unknown } | undefined;
  if (envelope === undefined || envelope.data === undefined) return text(answer.body);
  const { data, meta, warnings } = envelope;
  const shown = meta === undefined && warnings === undefined ? data : { data, meta, warnings };
  return text(JSON.stringify(shown, null, 2));
}

/**
 * A refusal as an MCP tool error (isError), in words a model can act on: a 422 names each bad
 * field with its messages, a 403 says what the key lacks (the role or the scope), a 429 when to
 * try again.
 */
function failure(answer: ApiAnswer): CallToolResult {
  const message = (parsed(answer.body) as { message?: unknown } | undefined)?.message;
  if (answer.status === 422 && message !== null && typeof message === 'object') {
    const fields = Object.entries(message as Record<string, string[]>).map(
      ([field, messages]) => `${field}: ${[messages].flat().join(' ')}`,
    );
    return text(`The API refused the input (422):\n${fields.join('\n')}`, true);
  }
  const words = typeof message === 'string' ? message : answer.body;
  const wait = answer.status === 429 && answer.retryAfter ? ` Retry after ${answer.retryAfter} s.` : '';
  return text(`The API answered ${answer.status}: ${words}${wait}`, true);
}

export function toolResult(answer: ApiAnswer): CallToolResult {
  return answer.status < 400 ? success(answer) : failure(answer);
}

/** A tool called without a path parameter it needs: told as the API tells a missing field. */
export function missingArgument(name: string): CallToolResult {
  return text(`The API refused the input (422):\n${name}: The ${name} field is required.`, true);
}
