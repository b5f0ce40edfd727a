// The most productive identified people of the whole graph, from the stored per-person totals: what
// analytics/collaboration-nodes computes with no filter. Shown by the record with the smallest id; `ids` are all
// the person's records. Read from the top of the :Person(personPapers) index.
MATCH (a:Person)
WHERE a.personPapers IS NOT NULL AND a.anonymous = false
WITH a
ORDER BY a.personPapers DESC, a.person
LIMIT $limit
CALL (a) {
  OPTIONAL MATCH (other:Author {orcid: a.orcid})
  WHERE a.orcid IS NOT NULL
  RETURN collect(other.id) AS others
}
RETURN a {.id, .name, .orcid} AS author, a.personPapers AS papers, a.person AS person,
       CASE WHEN size(others) = 0 THEN [a.id] ELSE others END AS ids
