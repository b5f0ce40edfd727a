// The shortest chain of citations between $from and $to in either direction, at most $depth steps (≤ 10).
MATCH (a:Paper {id: $from}), (b:Paper {id: $to})
MATCH p = shortestPath((a)-[:CITES*1..10]-(b))
// Filtered after the search: a length predicate inside it makes Neo4j fall back to an exhaustive search of all paths.
WITH p
WHERE length(p) <= $depth
RETURN [n IN nodes(p) | n.id] AS ids, [rel IN relationships(p) | startNode(rel).id] AS citing
