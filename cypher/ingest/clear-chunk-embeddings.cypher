// Removes the vectors of up to $limit chunks, of papers and of document sets (a change of embedding model,
// `citegraph embed --model`); returns how many it removed, 0 when none is left.
MATCH (c)
WHERE (c:Chunk OR c:SetChunk) AND c.embedding IS NOT NULL
WITH c LIMIT $limit
REMOVE c.embedding
RETURN count(c) AS cleared
