// Citations (either direction) between papers of $a and papers of $b: at most $limit pairs, each pair once.
MATCH (a:Paper)-[:CITES]-(b:Paper)
WHERE a.id IN $a AND b.id IN $b
RETURN DISTINCT a.id AS a, b.id AS b
LIMIT $limit
