// The next $limit chunks, in id order past $after, without a vector in $property (`embedding`, or the companion
// model's `companionEmbedding`).
MATCH (c:Chunk)
WHERE c[$property] IS NULL AND c.id > $after
RETURN c.id AS id, c.text AS text, c.paperTitle AS paperTitle, c.section AS section
ORDER BY c.id
LIMIT $limit
