// The counts behind the CD index (Funk and Owen-Smith 2017) of each given paper that at least $minCiting full papers
// cite: full papers citing it or one of its references, published in or after its year, split by whether they cite
// the paper, its references, or both (as cypher/analytics/paper-disruption.cypher does for one paper). Each citing
// paper is reached once per way it cites (the paper, a reference) and the ways are folded per paper, so no pair of a
// citing paper and a reference is tested on its own.
UNWIND $ids AS id
MATCH (f:Paper {id: id})
WHERE COUNT { (c:Paper)-[:CITES]->(f) WHERE c.stub = false } >= $minCiting
OPTIONAL MATCH (f)-[:CITES]->(r:Paper)
WITH f, collect(DISTINCT r) AS refs
CALL (f, refs) {
  MATCH (i:Paper)-[:CITES]->(f)
  RETURN i, true AS viaFocal
  UNION ALL
  UNWIND refs AS r
  MATCH (i:Paper)-[:CITES]->(r)
  WHERE i <> f
  RETURN i, false AS viaFocal
}
WITH f, refs, i, viaFocal
WHERE i.stub = false
  AND (f.year IS NULL OR i.year IS NULL OR i.year >= f.year)
WITH f, refs, i, max(CASE WHEN viaFocal THEN 1 ELSE 0 END) = 1 AS citesFocal,
     max(CASE WHEN viaFocal THEN 0 ELSE 1 END) = 1 AS citesReferences
RETURN f.id AS id, f.title AS title, f.year AS year, size(refs) AS references,
       count(CASE WHEN citesFocal AND NOT citesReferences THEN 1 END) AS focalOnly,
       count(CASE WHEN citesFocal AND citesReferences THEN 1 END) AS both,
       count(CASE WHEN citesReferences AND NOT citesFocal THEN 1 END) AS referencesOnly
