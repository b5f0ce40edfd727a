import type { AppContext } from '../../app-context';
import { CitegraphError, ErrorCode } from '../../errors';
import { DocumentsCorpus, type DocumentScope } from '../../sets/documents-corpus';
import type { Resolvers } from '../generated/graphql';
import type { GraphqlContext } from '../graphql-context';

/** The path documents are uploaded to, for a set. */
export const uploadPath = (id: string) => `/document-sets/${encodeURIComponent(id)}/documents`;

/** The caller's set owner, or FORBIDDEN for an anonymous caller of a server that is not on a loopback address. */
export function ownerOf(context: Pick<GraphqlContext, 'setOwner'>): string {
  if (context.setOwner === null) {
    throw new CitegraphError(
      ErrorCode.FORBIDDEN,
      'private document sets need an API key on a server that is not on a loopback address',
    );
  }
  return context.setOwner;
}

/** A `documentSet` argument loaded for this request: the caller's set (NOT_FOUND for anyone else's). */
export async function setScope(
  app: AppContext,
  context: GraphqlContext,
  input: { id: string; withSharedGraph?: boolean | null } | null | undefined,
): Promise<DocumentScope | null> {
  if (!input) return null;
  const documents = await app.documentSets.open(ownerOf(context), [input.id]);
  return {
    corpus: new DocumentsCorpus(documents, (text) => app.search.embedQuery(text)),
    withSharedGraph: input.withSharedGraph ?? false,
  };
}

/** Private document sets over GraphQL; uploads go through the HTTP endpoint (src/api/http-server.ts). */
export function setResolvers(app: AppContext): Resolvers {
  return {
    Query: {
      documentSets: (_, __, context) => app.documentSets.list(ownerOf(context)),
      documentSet: async (_, args, context) => {
        try {
          return await app.documentSets.get(ownerOf(context), args.id);
        } catch (error) {
          if (error instanceof CitegraphError && error.code === ErrorCode.NOT_FOUND) return null;
          throw error;
        }
      },
    },
    Mutation: {
      createDocumentSet: (_, args, context) => app.documentSets.create(ownerOf(context), args.ttlSeconds),
      deleteDocumentSet: (_, args, context) => app.documentSets.delete(ownerOf(context), args.id),
    },
    DocumentSet: {
      uploadPath: (set) => uploadPath(set.id),
    },
    SetDocument: {
      // The parent came through the owner's set: its id is the caller's to read.
      fullText: async (document) => (await app.documentSets.documentTexts([document.id])).get(document.id) ?? '',
    },
  };
}
