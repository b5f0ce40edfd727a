// What two author records share: distinct co-authors (a third author who wrote with each) and institutions.
UNWIND $pairs AS pair
MATCH (a:Author {id: pair[0]}), (b:Author {id: pair[1]})
RETURN pair[0] AS a, pair[1] AS b,
       COUNT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(c:Author)
               WHERE c <> a AND c <> b AND EXISTS { (c)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b) }
               RETURN DISTINCT c } AS sharedCoauthors,
       COUNT { MATCH (a)-[:AFFILIATED_WITH]->(i:Institution)<-[:AFFILIATED_WITH]-(b) RETURN DISTINCT i } AS sharedInstitutions
