// One page of full (non-stub) papers in the filter, ordered by id (offset paging: the one cursor format).
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
RETURN p {.*} AS paper
ORDER BY p.id
SKIP $skip
LIMIT $limit
