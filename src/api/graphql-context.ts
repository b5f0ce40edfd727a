import type { RequestContext } from '../request-context';
import type { Loaders } from './loaders';

/** What every resolver gets as its third argument: the request's own context and its batch loaders. */
export interface GraphqlContext {
  readonly request: RequestContext;
  readonly loaders: Loaders;
}
