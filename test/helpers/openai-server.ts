import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model does with the next request. */
export type ModelBehaviour =
  | {
      reply: (messages: Array<{ role: string; content: string }>) => string;
      promptTokens?: number;
      completionTokens?: number;
    }
  | { status: number; error: string }
  | { hang: true }
  | { malformed: true };

/** A local server speaking the OpenAI chat-completions protocol, for testing the LLM client and the pipeline. */
export class OpenAiCompatibleServer {
  readonly requests: Array<{
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: unknown;
  }> = [];
  behaviour: ModelBehaviour = { reply: () => 'ok' };
  private server: http.Server | undefined;

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (request.url !== '/v1/chat/completions' || request.method !== 'POST') {
          response.writeHead(404).end();
          return;
        }
        const parsed = JSON.parse(body) as OpenAiCompatibleServer['requests'][number];
        this.requests.push(parsed);
        const behaviour = this.behaviour;
        if ('hang' in behaviour) return;
        if ('malformed' in behaviour) {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [ {"message": ');
          return;
        }
        if ('status' in behaviour) {
          response
            .writeHead(behaviour.status, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: behaviour.error, type: 'server_error' } }));
          return;
        }
        const content = behaviour.reply(parsed.messages);
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 1764633600,
            model: parsed.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: {
              prompt_tokens: behaviour.promptTokens ?? 100,
              completion_tokens: behaviour.completionTokens ?? 20,
              total_tokens: (behaviour.promptTokens ?? 100) + (behaviour.completionTokens ?? 20),
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
