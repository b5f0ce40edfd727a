MATCH (c:Chunk)
WHERE c.embedding IS NULL AND c.id > $after
RETURN c.id AS id, c.text AS text, c.paperTitle AS paperTitle, c.section AS section
ORDER BY c.id
LIMIT $limit
