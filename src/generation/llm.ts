import OpenAI from 'openai';
import type { GenerationSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import type { ChatMessage, ChatOptions, ChatResult, LlmClient } from '../request-context';
import { ggufPath, LocalModelClient } from './local-llm';

/** Any OpenAI-compatible endpoint through the `openai` package. Errors become LLM_ERROR with a retryable flag. */
export class OpenAiCompatibleClient implements LlmClient {
  readonly model: string;
  private readonly client: OpenAI;

  constructor(settings: GenerationSettings) {
    this.model = settings.model;
    this.client = new OpenAI({
      apiKey: settings.apiKey ?? 'not-needed',
      ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      timeout: settings.timeoutMs,
      maxRetries: 1,
    });
  }

  async chat(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await this.client.chat.completions.create(
        {
          model: this.model,
          messages,
          temperature: 0,
          ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
          ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
        },
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      const status = (error as { status?: number }).status;
      const timeout = error instanceof OpenAI.APIConnectionTimeoutError;
      throw new CitegraphError(
        ErrorCode.LLM_ERROR,
        `LLM call failed: ${timeout ? 'timed out' : (error as Error).message}`,
        {
          retryable: timeout || status === undefined || status === 429 || status >= 500,
          cause: error,
          details: { status },
        },
      );
    }
    const text = response.choices?.[0]?.message?.content;
    if (typeof text !== 'string') {
      throw new CitegraphError(ErrorCode.LLM_ERROR, 'LLM answered without message content', { retryable: false });
    }
    return {
      text,
      promptTokens: response.usage?.prompt_tokens ?? 0,
      completionTokens: response.usage?.completion_tokens ?? 0,
    };
  }
}

/** Parses a JSON object from a model's text (tolerating a code fence); throws LLM_ERROR when it is not one. */
export function parseJsonObject(text: string): Record<string, unknown> {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new CitegraphError(ErrorCode.LLM_ERROR, `LLM output is not a JSON object: ${trimmed.slice(0, 80)}`, {
    retryable: false,
  });
}

/**
 * The service's model: an OpenAI-compatible endpoint when one is set, else the local generator when a GGUF model is
 * named (CITEGRAPH_LLM_GGUF), else none (extractive answers).
 */
export function createLlmClient(settings: GenerationSettings): (LlmClient & { close?: () => Promise<void> }) | null {
  if (settings.baseUrl || settings.apiKey) return new OpenAiCompatibleClient(settings);
  const gguf = ggufPath(settings);
  return gguf ? new LocalModelClient(settings, gguf) : null;
}
