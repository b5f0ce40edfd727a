import { encodeOffset, type LazySlice, type Slice } from '../paging';
import type { ConnectionModel, EdgeModel } from './models';

/** A service's page as a connection model. */
export function toConnection<T>(slice: Slice<T> | LazySlice<T>): ConnectionModel<T> {
  return 'hasNextPage' in slice
    ? { items: slice.items, skip: slice.skip, total: slice.total, hasNextPage: slice.hasNextPage }
    : { items: slice.items, skip: slice.skip, total: slice.total };
}

async function totalOf(connection: ConnectionModel<unknown>): Promise<number> {
  return typeof connection.total === 'function' ? connection.total() : connection.total;
}

/** The fields every connection type has, the same way for every list. */
export function connectionFields<T>() {
  return {
    edges: (connection: ConnectionModel<T>): Array<EdgeModel<T>> =>
      connection.items.map((item, index) => ({ item, offset: connection.skip + index })),
    totalCount: (connection: ConnectionModel<T>) => totalOf(connection),
    pageInfo: async (connection: ConnectionModel<T>) => {
      const count = connection.items.length;
      const hasNextPage = connection.hasNextPage ?? connection.skip + count < (await totalOf(connection));
      return {
        hasNextPage,
        hasPreviousPage: connection.skip > 0,
        startCursor: count > 0 ? encodeOffset(connection.skip) : null,
        endCursor: count > 0 ? encodeOffset(connection.skip + count - 1) : null,
      };
    },
  };
}

/** The cursor of an edge. */
export const edgeCursor = (edge: EdgeModel<unknown>): string => encodeOffset(edge.offset);
