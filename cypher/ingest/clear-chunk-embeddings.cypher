// Removes the vectors in $property of up to $limit chunks (a change of embedding model, `citegraph embed --model`):
// of papers and of document sets for the model's own `embedding`, of papers for the companion's; returns how many it
// removed, 0 when none is left.
MATCH (c)
WHERE (c:Chunk OR (c:SetChunk AND $property = 'embedding')) AND c[$property] IS NOT NULL
WITH c LIMIT $limit
SET c[$property] = null
RETURN count(c) AS cleared
