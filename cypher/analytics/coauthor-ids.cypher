// The co-authors of each given author record, as ids (for telling whether two records of one name are one person).
UNWIND $ids AS id
MATCH (a:Author {id: id})-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author)
WHERE co.id <> id
RETURN id, collect(DISTINCT co.id) AS coauthors
