// The chunks of full papers (optionally of some collections) with what their embedding input is made of (the chunk,
// its paper's title, its section), for embedding them with another model (scripts/bench/models). Keyset-paginated by
// chunk id.
MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk)
WHERE p.stub = false AND c.id > $after
  // include: fragments/paper-filter
RETURN c.id AS id, p.id AS paperId, c.text AS text, c.paperTitle AS paperTitle, c.section AS section
ORDER BY c.id
LIMIT $limit
