// The filtered full papers of each map node standing for a person ($groups: the node's id and its author records):
// their years (the mean-year overlay) and up to 30 titles (the cluster names).
UNWIND $groups AS group
UNWIND group.records AS record
MATCH (:Author {id: record})-[:AUTHORED]->(p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH group.id AS id, collect(DISTINCT p) AS papers
RETURN id, [q IN papers WHERE q.year IS NOT NULL | q.year] AS years, [q IN papers[..30] | coalesce(q.title, '')] AS titles
