// The stubs (works known only as references) with an OpenAlex id that most full papers cite — of $collection when
// given — and that no lookup has labelled yet: the most connected unlabelled nodes of co-citation maps.
MATCH (s:Paper {stub: true})
WHERE s.labelledAt IS NULL AND s.id =~ 'W[0-9]+'
WITH s, COUNT {
  (s)<-[:CITES]-(c:Paper)
  WHERE c.stub = false AND ($collection IS NULL OR $collection IN c.collections)
} AS citing
WHERE citing > 0
ORDER BY citing DESC, s.id
LIMIT $limit
RETURN s.id AS id, citing
