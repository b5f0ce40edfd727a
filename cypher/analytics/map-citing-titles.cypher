// Titles of up to 30 filtered full papers citing each co-cited work $ids: co-citation clusters are named by the terms
// of the papers citing them, as CiteSpace labels them.
UNWIND $ids AS id
MATCH (:Paper {id: id})<-[:CITES]-(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH id, p
ORDER BY p.id
RETURN id, collect(coalesce(p.title, ''))[..30] AS titles
