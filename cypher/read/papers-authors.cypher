// The authors of several papers in author-list order (one query for a whole page of papers).
UNWIND $ids AS id
MATCH (a:Author)-[r:AUTHORED]->(:Paper {id: id})
RETURN id AS paperId, a {.*} AS author, r.position AS position, r.order AS order
ORDER BY paperId, order
