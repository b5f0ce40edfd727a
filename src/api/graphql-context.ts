import type { RequestContext } from '../request-context';

/** What every resolver gets as its third argument: the request's own context. */
export interface GraphqlContext {
  readonly request: RequestContext;
}
