// The sentence-embedding model the chunk vectors come from (null before it was recorded), and whether any chunk has a
// vector.
OPTIONAL MATCH (space:EmbeddingSpace {id: 'chunks'})
RETURN space.model AS model, EXISTS { MATCH (c:Chunk) WHERE c.embedding IS NOT NULL } AS hasVectors
