// Chunks with the model's vector and none of the companion model's (`citegraph embed` makes them): search fuses the
// companion's list only when there is none, so that papers embedded before the companion was set are not ranked by one
// list fewer.
MATCH (c:Chunk)
WHERE c.embedding IS NOT NULL AND c.companionEmbedding IS NULL
RETURN count(c) AS missing
