// Full papers that cite this one, newest first.
MATCH (:Paper {id: $id})<-[:CITES]-(q:Paper)
WHERE q.stub = false
WITH q ORDER BY q.year DESC, q.id
WITH collect(q) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | r {.*}] AS items
