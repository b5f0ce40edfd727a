// One page of full (non-stub) papers in the filter in the order a user chose ($sort, $sortDescending), ties by id.
// Without a sort, read/papers-page reads them in id order from the index instead.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p,
  // include: fragments/paper-sort-key
  AS sortKey
ORDER BY
  // include: fragments/paper-order
  p.id
SKIP $skip
LIMIT $limit
RETURN p {.*} AS paper
