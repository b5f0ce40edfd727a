// Node counts from the counts store (constant time): how far over-fetching can usefully go.
RETURN COUNT { MATCH (:Paper) } AS papers, COUNT { MATCH (:Chunk) } AS chunks
