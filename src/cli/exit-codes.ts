import { SettingsError } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';

/** Exit codes of the citegraph command (documented in docs/ingestion.md). */
export const EXIT = {
  /** Everything asked was done. */
  OK: 0,
  /** An unexpected failure (a bug, or the environment: disk, Java). */
  FAILURE: 1,
  /** Bad usage or input: an unknown command or option, a bad setting, an invalid argument. */
  BAD_INPUT: 2,
  /** The database could not be reached (or the embedded one is not running, for `db status`). */
  DATABASE_UNAVAILABLE: 3,
  /** Partial: some records were skipped, or an input was cut short; the summary says which and where. */
  PARTIAL: 4,
  /** Every external source failed (`fetch`). */
  SOURCES_FAILED: 5,
} as const;

/** The exit code for an error that ended a command. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof SettingsError) return EXIT.BAD_INPUT;
  if (error instanceof CitegraphError) {
    if (error.code === ErrorCode.BAD_USER_INPUT || error.code === ErrorCode.INGEST_INPUT) return EXIT.BAD_INPUT;
    if (error.code === ErrorCode.DATABASE_UNAVAILABLE) return EXIT.DATABASE_UNAVAILABLE;
  }
  if (
    error instanceof TypeError &&
    /parseArgs|Unknown option|ERR_PARSE_ARGS/i.test(`${(error as { code?: string }).code ?? ''} ${error.message}`)
  ) {
    return EXIT.BAD_INPUT;
  }
  return EXIT.FAILURE;
}
