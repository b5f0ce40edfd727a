import type { RequestContext } from '../request-context';
import type { Principal } from './access';
import type { Loaders } from './loaders';

/** What every resolver gets as its third argument: the request's own context, its batch loaders, its caller. */
export interface GraphqlContext {
  readonly request: RequestContext;
  readonly loaders: Loaders;
  readonly principal: Principal;
}
