// The most productive identified people within the filter: the nodes of a collaboration network. Records sharing an
// ORCID are one person, shown by the record with the smallest id; `ids` are all its records.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)
WHERE p.stub = false AND a.anonymous = false
  // include: fragments/paper-filter
WITH coalesce('orcid:' + a.orcid, a.id) AS person, p, min(a.id) AS record
WITH person, count(p) AS papers, min(record) AS record
ORDER BY papers DESC, person
LIMIT $limit
MATCH (a:Author {id: record})
CALL (a) {
  OPTIONAL MATCH (other:Author {orcid: a.orcid})
  WHERE a.orcid IS NOT NULL
  RETURN collect(other.id) AS others
}
RETURN a {.id, .name, .orcid} AS author, papers, person,
       CASE WHEN size(others) = 0 THEN [a.id] ELSE others END AS ids
