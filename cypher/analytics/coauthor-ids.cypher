// The co-authors of each given author record, as ids and names (for telling whether two records of one name are one
// person: records without an OpenAlex id have co-authors without one too, so names are compared as well), and the
// venues the record published in (records of one full name, middle initials included, that share a venue).
UNWIND $ids AS id
MATCH (a:Author {id: id})
RETURN id,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author) WHERE co.id <> id RETURN DISTINCT co.id } AS coauthors,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author) WHERE co.id <> id RETURN DISTINCT co.name } AS names,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)-[:PUBLISHED_IN]->(v:Venue) RETURN DISTINCT v.id } AS venues
