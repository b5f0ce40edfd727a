// The values of a filter that name nothing in the graph: collections no full paper belongs to, and topic, author,
// venue and institution ids with no node. Each check stops at the first match, so known values cost an index seek
// (or, for a collection, the first paper found).
RETURN
  [c IN coalesce($collections, []) WHERE NOT EXISTS { MATCH (p:Paper) WHERE p.stub = false AND c IN p.collections }]
    AS collections,
  [id IN coalesce($topics, []) WHERE NOT EXISTS { MATCH (:Topic {id: id}) }] AS topics,
  [id IN coalesce($authors, []) WHERE NOT EXISTS { MATCH (:Author {id: id}) }] AS authors,
  [id IN coalesce($venues, []) WHERE NOT EXISTS { MATCH (:Venue {id: id}) }] AS venues,
  [id IN coalesce($institutions, []) WHERE NOT EXISTS { MATCH (:Institution {id: id}) }] AS institutions
