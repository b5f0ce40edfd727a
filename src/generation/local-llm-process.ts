import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importModule } from '../esm-import';

/**
 * The local generator's process (forked by src/generation/local-llm.ts): loads a GGUF model with node-llama-cpp and
 * answers chat requests one at a time over IPC. node-llama-cpp is an ES module installed by setup into its own folder
 * (`node scripts/setup.js --only local-llm`), not a dependency of the service, so it is imported from there by path.
 */

export interface LoadRequest {
  type: 'load';
  modelPath: string;
  runtimeDir: string;
  threads: number;
  contextSize: number;
}

export interface ChatRequest {
  type: 'chat';
  id: number;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  maxTokens: number;
  json: boolean;
}

export interface CancelRequest {
  type: 'cancel';
  id: number;
}

export type LocalLlmRequest = LoadRequest | ChatRequest | CancelRequest;

export type LocalLlmAnswer =
  | { type: 'ready'; contextSize: number; loadMs: number }
  | { type: 'reply'; id: number; text: string; promptTokens: number; completionTokens: number; ms: number }
  | { type: 'failed'; id: number | null; message: string; cancelled: boolean };

/* The parts of node-llama-cpp's API this process uses. */
interface ChatHistoryItem {
  type: 'system' | 'user' | 'model';
  text?: string;
  response?: string[];
}
interface Session {
  setChatHistory(history: ChatHistoryItem[]): void;
  prompt(text: string, options: Record<string, unknown>): Promise<string>;
}
interface Model {
  tokenize(text: string): unknown[];
  createContext(options: { contextSize: number; threads?: number }): Promise<{
    contextSize: number;
    getSequence(): unknown;
  }>;
}
interface Llama {
  loadModel(options: { modelPath: string }): Promise<Model>;
  getGrammarFor(type: 'json'): Promise<unknown>;
}
interface NodeLlamaCpp {
  getLlama(options: Record<string, unknown>): Promise<Llama>;
  LlamaChatSession: new (options: { contextSequence: unknown; autoDisposeSequence: boolean }) => Session;
}

let loaded: { model: Model; session: Session; json: unknown } | null = null;
const running = new Map<number, AbortController>();
let queue: Promise<void> = Promise.resolve();

function send(answer: LocalLlmAnswer): void {
  process.send?.(answer);
}

async function load(request: LoadRequest): Promise<void> {
  const started = Date.now();
  const entry = path.join(request.runtimeDir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  const lib = (await importModule(pathToFileURL(entry).href)) as NodeLlamaCpp;
  // CPU only, never a build from source at run time; llama.cpp's own log lines stay out of the service's output.
  const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: 'error', logger: () => undefined });
  const model = await llama.loadModel({ modelPath: request.modelPath });
  const context = await model.createContext({
    contextSize: request.contextSize,
    ...(request.threads > 0 ? { threads: request.threads } : {}),
  });
  const session = new lib.LlamaChatSession({ contextSequence: context.getSequence(), autoDisposeSequence: false });
  loaded = { model, session, json: await llama.getGrammarFor('json') };
  send({ type: 'ready', contextSize: context.contextSize, loadMs: Date.now() - started });
}

/** The messages as the session's history (system and earlier turns) and the last user message as the prompt. */
export function splitMessages(messages: ChatRequest['messages']): { history: ChatHistoryItem[]; prompt: string } {
  const last = messages.length > 0 && messages[messages.length - 1]!.role === 'user' ? messages.length - 1 : -1;
  const history: ChatHistoryItem[] = messages
    .slice(0, last === -1 ? messages.length : last)
    .map((m) =>
      m.role === 'assistant'
        ? { type: 'model', response: [m.content] }
        : { type: m.role === 'system' ? 'system' : 'user', text: m.content },
    );
  return { history, prompt: last === -1 ? '' : messages[last]!.content };
}

async function chat(request: ChatRequest): Promise<void> {
  if (!loaded) {
    send({ type: 'failed', id: request.id, message: 'the model is not loaded', cancelled: false });
    return;
  }
  const controller = running.get(request.id);
  if (!controller || controller.signal.aborted) {
    running.delete(request.id);
    send({ type: 'failed', id: request.id, message: 'cancelled', cancelled: true });
    return;
  }
  const started = Date.now();
  try {
    const { history, prompt } = splitMessages(request.messages);
    loaded.session.setChatHistory(history);
    const text = await loaded.session.prompt(prompt, {
      maxTokens: request.maxTokens,
      temperature: 0,
      signal: controller.signal,
      ...(request.json ? { grammar: loaded.json } : {}),
    });
    const promptTokens = request.messages.reduce((sum, m) => sum + loaded!.model.tokenize(m.content).length, 0);
    send({
      type: 'reply',
      id: request.id,
      text,
      promptTokens,
      completionTokens: loaded.model.tokenize(text).length,
      ms: Date.now() - started,
    });
  } catch (error) {
    send({
      type: 'failed',
      id: request.id,
      message: controller.signal.aborted ? 'cancelled' : (error as Error).message,
      cancelled: controller.signal.aborted,
    });
  } finally {
    running.delete(request.id);
  }
}

process.on('message', (request: LocalLlmRequest) => {
  if (request.type === 'load') {
    load(request).catch((error: unknown) =>
      send({ type: 'failed', id: null, message: (error as Error).message, cancelled: false }),
    );
  } else if (request.type === 'cancel') {
    running.get(request.id)?.abort();
  } else {
    // One generation at a time on the one context sequence; a request cancelled while queued never starts.
    running.set(request.id, new AbortController());
    queue = queue.then(() => chat(request));
  }
});
process.on('disconnect', () => process.exit(0));
