import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { analyticsResolvers } from './analytics';
import { askResolvers } from './ask';
import { catalogResolvers } from './catalog';
import { exportResolvers } from './exports';
import { reportResolvers } from './report';
import { scienceResolvers } from './science';
import { searchResolvers } from './search';
import { setResolvers } from './sets';
import { streamResolvers } from './stream';

/** Every resolver of the schema, typed by the code generated from schema/ (scripts/codegen.js). */
export function makeResolvers(app: AppContext, lanes: Lanes): Resolvers[] {
  return [
    catalogResolvers(app),
    searchResolvers(app, lanes),
    askResolvers(app, lanes),
    analyticsResolvers(app, lanes),
    scienceResolvers(app, lanes),
    setResolvers(app),
    exportResolvers(app, lanes),
    reportResolvers(app, lanes),
    streamResolvers(app, lanes),
  ];
}
