// Full papers close in meaning to a topic: the $k chunks nearest the topic's centroid (HNSW, cosine; the index
// reports (1 + cosine) / 2), each paper scored by its nearest chunk, kept when that cosine is at least $minCosine.
// `chunks` counts the passing chunks of each paper: when they sum to $k every chunk read passed, and the caller reads
// further.
CALL db.index.vector.queryNodes('chunk_embedding', $k, $vector) YIELD node AS c, score
WITH c, 2 * score - 1 AS cosine
WHERE cosine >= $minCosine
OPTIONAL MATCH (p:Paper)-[:HAS_CHUNK]->(c)
RETURN p.id AS id, p.stub AS stub, max(cosine) AS similarity, count(c) AS chunks
