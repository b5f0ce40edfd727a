import type { RequestContext } from '../request-context';
import type { Principal } from './access';
import type { Loaders } from './loaders';

/** What every resolver gets as its third argument: the request's own context, its batch loaders, its caller. */
export interface GraphqlContext {
  readonly request: RequestContext;
  readonly loaders: Loaders;
  readonly principal: Principal;
  /**
   * Who owns the private document sets this request creates and sees: `key:<name>`, or `anonymous` on a loopback
   * server; null for an anonymous caller of a server on another address, who may not hold sets.
   */
  readonly setOwner: string | null;
}
