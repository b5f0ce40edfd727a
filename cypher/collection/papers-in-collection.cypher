// Ids of the papers of a collection (full papers; a stub belongs to none).
MATCH (p:Paper)
WHERE $collection IN p.collections
RETURN p.id AS id
ORDER BY id
