import { CitegraphError, ErrorCode } from '../errors';
import type { AskRequest } from './ask-types';

/**
 * One step of the ask pipeline. It takes the state typed as what must exist by then and returns it with more filled
 * in. A stage names the failures it tolerates and what the state becomes then, so a failed stage never leaves a
 * later one reading `undefined`; anything else it throws fails the request (bad input, the database being down).
 */
export interface Stage<In extends AskRequest, Out extends AskRequest> {
  readonly name: string;
  run(state: In): Promise<Out>;
  /** The failures this stage may have without failing the answer, and the state it leaves then. */
  readonly tolerates?: {
    readonly failure: (error: unknown) => boolean;
    readonly fallback: (state: In, error: Error) => Out;
  };
  /** A line for the trace about what the stage did. */
  note?(state: Out): string;
}

/** Failures of an optional source (the LLM, the scholarly APIs): they weaken an answer, they do not fail it. */
export function isSourceFailure(error: unknown): boolean {
  if (!(error instanceof CitegraphError)) return false;
  return error.code === ErrorCode.LLM_ERROR || error.code.startsWith('EXTERNAL_');
}

/** Anything but bad input and an unreachable database: for stages whose work only adds to an answer. */
export function isNonFatal(error: unknown): boolean {
  if (!(error instanceof CitegraphError)) return true;
  return (
    error.code !== ErrorCode.BAD_USER_INPUT &&
    error.code !== ErrorCode.DATABASE_UNAVAILABLE &&
    error.code !== ErrorCode.DEADLINE_EXCEEDED
  );
}

/** Runs a stage: times it, applies its tolerance, and records a trace line (`failed: …` when it fell back). */
export async function runStage<In extends AskRequest, Out extends AskRequest>(
  stage: Stage<In, Out>,
  state: In,
): Promise<Out> {
  if (state.ctx.deadline.expired) {
    throw new CitegraphError(ErrorCode.DEADLINE_EXCEEDED, `the request ended before the ${stage.name} stage`, {
      retryable: true,
    });
  }
  const started = process.hrtime.bigint();
  const record = (note: string, after: Out | In) => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    state.trace.push({ stage: stage.name, ms, note });
    state.ctx.stageDone({ stage: stage.name, ms, note, state: after });
  };
  let out: Out;
  try {
    out = await stage.run(state);
  } catch (error) {
    if (!stage.tolerates?.failure(error)) {
      record(`failed: ${(error as Error).message}`, state);
      throw error;
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    out = stage.tolerates.fallback(state, failure);
    record(`failed: ${failure.message}`, out);
    return out;
  }
  record(stage.note?.(out) ?? '', out);
  return out;
}
