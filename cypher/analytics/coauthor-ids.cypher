// The co-authors of each given author record, as ids and names (for telling whether two records of one name are one
// person: records without an OpenAlex id have co-authors without one too, so names are compared as well).
UNWIND $ids AS id
MATCH (a:Author {id: id})-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author)
WHERE co.id <> id
RETURN id, collect(DISTINCT co.id) AS coauthors, collect(DISTINCT co.name) AS names
