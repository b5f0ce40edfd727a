// One citation (either direction) between a paper of $a and a paper of $b, if there is any.
MATCH (a:Paper)-[:CITES]-(b:Paper)
WHERE a.id IN $a AND b.id IN $b
RETURN a.id AS a, b.id AS b
LIMIT 1
