// The sentence-embedding model whose vectors the chunks hold in $property (null before it was recorded), and whether
// any chunk has one. The model's own vectors are space 'chunks' in `embedding`; a companion model's are
// 'chunks-companion' in `companionEmbedding`.
OPTIONAL MATCH (space:EmbeddingSpace {id: $space})
RETURN space.model AS model, EXISTS { MATCH (c:Chunk) WHERE c[$property] IS NOT NULL } AS hasVectors
