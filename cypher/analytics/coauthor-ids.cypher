// The co-authors of each given author record, as ids and names (for telling whether two records of one name are one
// person: records without an OpenAlex id have co-authors without one too, so names are compared as well), the
// venues the record published in, and the specific concepts of its papers (level 2 or deeper, carried by at most
// $maxTopicShare of the graph's papers or by at most $rareTopicPapers papers): records of one full name, middle initials
// included, that share a venue or such a concept.
CALL () { MATCH (p:Paper) RETURN count(p) AS papers }
WITH CASE WHEN $maxTopicShare * papers > $rareTopicPapers THEN $maxTopicShare * papers ELSE $rareTopicPapers END AS maxTopicPapers
UNWIND $ids AS id
MATCH (a:Author {id: id})
RETURN id,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author) WHERE co.id <> id RETURN DISTINCT co.id } AS coauthors,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(co:Author) WHERE co.id <> id RETURN DISTINCT co.name } AS names,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)-[:PUBLISHED_IN]->(v:Venue) RETURN DISTINCT v.id } AS venues,
       COLLECT {
         MATCH (a)-[:AUTHORED]->(:Paper)-[:HAS_TOPIC]->(t:Topic)
         WHERE coalesce(t.level, 0) >= 2
           AND COUNT { (t)<-[:HAS_TOPIC]-(:Paper) } <= maxTopicPapers
         RETURN DISTINCT t.id
       } AS topics
